//! The counting allocator forwards every call and counts allocations on
//! the calling thread only. Its `unsafe` is checked under Miri:
//! `cargo +nightly miri test -p test-support --test counting_alloc`.

use test_support::alloc::{allocations, Counting};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn counts_alloc_zeroed_and_realloc_and_keeps_the_bytes() {
    let (n, v) = allocations(|| {
        let mut v: Vec<u8> = Vec::with_capacity(4); // alloc
        v.extend_from_slice(&[1, 2, 3, 4]);
        v.reserve(1024); // realloc
        v.push(5);
        v
    });
    assert_eq!(n, 2);
    assert_eq!(v, [1, 2, 3, 4, 5]);
    let (n, z) = allocations(|| vec![0u64; 64]); // alloc_zeroed
    assert_eq!(n, 1);
    assert!(z.iter().all(|&x| x == 0));
    // Freeing is not counted.
    let (n, ()) = allocations(|| drop((v, z)));
    assert_eq!(n, 0);
}

#[test]
fn other_threads_are_not_counted() {
    let (n, len) = allocations(|| {
        std::thread::scope(|s| {
            s.spawn(|| std::hint::black_box(vec![7u8; 100]).len())
                .join()
        })
    });
    assert_eq!(len.ok(), Some(100));
    // Spawning allocates on this thread; the spawned thread's vector must
    // not add to that: the same spawn with an empty thread counts the same.
    let (m, _) = allocations(|| std::thread::scope(|s| s.spawn(|| ()).join()));
    assert_eq!(n, m);
}
