//! A consumer reading a TCP session framed as CME iLink 3 and B3
//! EntryPoint frame it (the 4-byte little-endian framing header): a server
//! task writes car messages, encoded by the generated encoder, in awkward
//! pieces; the client reads them with `FramedRead` and sbe-rt's
//! `FrameCodec`, and each `Bytes` frame goes straight to the generated
//! `decode`.

use std::time::Duration;

use futures_util::StreamExt;
use sbe_framing::codec::FrameCodec;
use sbe_framing::tokio_util::codec::FramedRead;
use sbe_framing::FrameFormat;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};

mod car {
    #![allow(dead_code)]
    sbe_rt::include_schema!("baseline");
}

/// Car `serial`, framed: the 4-byte header (length counting itself,
/// encoding type 0xEB50), then the message.
fn framed_car(serial: u64) -> Vec<u8> {
    let mut buf = [0u8; 256];
    let mut e = car::CarEncoder::wrap(&mut buf).expect("room");
    e.serial_number(serial).model_year(2013);
    let n = e.finish().expect("encodes");
    let mut frame = Vec::with_capacity(n + 4);
    frame.extend_from_slice(&u16::try_from(n + 4).expect("small").to_le_bytes());
    frame.extend_from_slice(&0xEB50u16.to_le_bytes());
    frame.extend_from_slice(&buf[..n]);
    frame
}

async fn serve(listener: TcpListener) {
    let (mut socket, _) = listener.accept().await.expect("accept");
    let stream: Vec<u8> = (1..=20).flat_map(framed_car).collect();
    // Pieces of 1, 3, 7, ... bytes: cut mid-header and mid-message, and
    // several frames in one write at the end.
    let mut at = 0;
    let mut size = 1;
    while at < stream.len() {
        let end = (at + size).min(stream.len());
        socket.write_all(&stream[at..end]).await.expect("write");
        socket.flush().await.expect("flush");
        tokio::time::sleep(Duration::from_millis(1)).await;
        at = end;
        size = size * 2 + 1;
    }
}

#[test]
fn generated_decoders_read_frames_from_a_tcp_stream() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let server = tokio::spawn(serve(listener));
        let socket = TcpStream::connect(addr).await.expect("connect");
        let mut frames = FramedRead::new(socket, FrameCodec::new(FrameFormat::SOFH_LE));
        let read = async {
            let mut serials = Vec::new();
            while let Some(frame) = frames.next().await {
                let frame = frame.expect("a whole frame");
                let car::Message::Car(c) = car::decode(&frame).expect("decodes");
                serials.push(c.serial_number());
            }
            serials
        };
        let serials = tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .expect("read within 10 s");
        assert_eq!(serials, (1..=20).collect::<Vec<u64>>());
        server.await.expect("server");
    });
}
