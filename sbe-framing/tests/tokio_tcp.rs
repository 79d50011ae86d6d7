//! `FrameCodec` over a real TCP connection on 127.0.0.1 (port 0): a server
//! task writes framed car messages in awkward pieces (split mid-prefix and
//! mid-message, several frames in one write), a client reads them with
//! `FramedRead` and checks every frame's bytes and header fields; a lying
//! length and a stream cut mid-frame are errors; `FramedWrite` writes what
//! the framing says. Every test bounds itself with a timeout.

use std::future::Future;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use sbe_framing::bytes::{Bytes, BytesMut};
use sbe_framing::codec::{CodecError, FrameCodec};
use sbe_framing::tokio_util::codec::{Decoder, FramedRead, FramedWrite};
use sbe_framing::Error;
use sbe_framing::{Counts, FrameFormat, LengthField};
use sbe_rt::{get_u16_le, get_u64_le};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The README's car message, as `sbe encode --schema schemas/car.xml`
/// writes it: blockLength 45, templateId 1, schemaId 1, version 0, serial
/// number 1234 at offset 8.
const CAR: [u8; 125] = [
    45, 0, 1, 0, 1, 0, 0, 0, 210, 4, 0, 0, 0, 0, 0, 0, 221, 7, 1, 65, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0,
    0, 0, 4, 0, 0, 0, 97, 98, 99, 100, 101, 102, 6, 208, 7, 4, 49, 50, 51, 35, 1, 78, 200, 6, 0, 1,
    0, 30, 0, 154, 153, 15, 66, 11, 0, 0, 0, 85, 114, 98, 97, 110, 32, 67, 121, 99, 108, 101, 1, 0,
    1, 0, 95, 6, 0, 1, 0, 30, 0, 0, 0, 128, 64, 5, 0, 0, 0, 72, 111, 110, 100, 97, 9, 0, 0, 0, 67,
    105, 118, 105, 99, 32, 86, 84, 105, 6, 0, 0, 0, 97, 98, 99, 100, 101, 102,
];

/// Five car messages, serial numbers 1 to 5.
fn cars() -> Vec<Vec<u8>> {
    (1..=5u64)
        .map(|serial| {
            let mut car = CAR.to_vec();
            car[8..16].copy_from_slice(&serial.to_le_bytes());
            car
        })
        .collect()
}

/// `messages` framed by `format` (its default encoding type), by hand with
/// `write_header`, and where each frame ends.
fn wire(format: &FrameFormat, messages: &[Vec<u8>]) -> (Vec<u8>, Vec<usize>) {
    let mut wire = Vec::new();
    let mut ends = Vec::new();
    for m in messages {
        let start = wire.len();
        wire.resize(start + format.encoded_len(m.len()).unwrap(), 0);
        let p = start + format.prefix_len;
        wire[p..p + m.len()].copy_from_slice(m);
        format
            .write_header(&mut wire[start..], m.len(), format.default_encoding_type())
            .unwrap();
        ends.push(wire.len());
    }
    (wire, ends)
}

/// Runs `test` on a current-thread runtime, failing after 10 seconds.
fn run(test: impl Future<Output = ()>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(10), test)
            .await
            .expect("test took more than 10 s");
    });
}

/// A listener on 127.0.0.1, port 0, and a server task that accepts one
/// connection and writes `pieces` to it, pausing after each so that the
/// client reads them one by one, then closes.
async fn serve(pieces: Vec<Vec<u8>>) -> (TcpStream, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        socket.set_nodelay(true).unwrap();
        for piece in pieces {
            socket.write_all(&piece).await.unwrap();
            socket.flush().await.unwrap();
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        socket.shutdown().await.unwrap();
    });
    let client = TcpStream::connect(addr).await.unwrap();
    (client, server)
}

/// `wire` cut at `cuts`.
fn pieces(wire: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut pieces = Vec::new();
    let mut at = 0;
    for &cut in cuts.iter().chain([&wire.len()]) {
        pieces.push(wire[at..cut].to_vec());
        at = cut;
    }
    pieces
}

/// A `FrameCodec` that records how many bytes were buffered each time a
/// frame was not yet whole.
struct Watching {
    codec: FrameCodec,
    partial: Vec<usize>,
}

impl Decoder for Watching {
    type Item = Bytes;
    type Error = CodecError;
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<Bytes>, CodecError> {
        let r = self.codec.decode(src);
        if matches!(r, Ok(None)) && !src.is_empty() {
            self.partial.push(src.len());
        }
        r
    }
}

fn formats() -> [FrameFormat; 3] {
    [
        // CME iLink 3: u16 LE length counting the 4 bytes, 0xCAFE.
        FrameFormat::SOFH_LE,
        // FIX SOFH: u32 BE length counting the 6 bytes, 0xEB50.
        FrameFormat::SOFH,
        // A u32 BE length of the message alone, frames padded to 8.
        FrameFormat::new(4, LengthField::u32_be(0))
            .with_counts(Counts::Message)
            .with_align(8),
    ]
}

#[test]
fn frames_written_in_awkward_pieces_arrive_whole() {
    for format in formats() {
        run(async move {
            let cars = cars();
            let (wire, ends) = wire(&format, &cars);
            let prefix = format.prefix_len;
            let cuts = [
                2,                    // mid-prefix of the first frame
                60,                   // mid-message
                ends[0] + 1,          // the first frame's end and 1 byte of the next prefix
                ends[3],              // the rest of the second frame, the third and fourth whole
                ends[3] + prefix + 3, // the fifth's prefix and a little
            ];
            let (client, server) = serve(pieces(&wire, &cuts)).await;
            let watching = Watching {
                codec: FrameCodec::new(format),
                partial: Vec::new(),
            };
            let mut frames = FramedRead::new(client, watching);
            let mut got = Vec::new();
            while let Some(frame) = frames.next().await {
                got.push(frame.unwrap());
            }
            server.await.unwrap();
            assert_eq!(got.len(), cars.len(), "{format:?}");
            for (i, (frame, car)) in got.iter().zip(&cars).enumerate() {
                assert_eq!(&frame[..], &car[..], "{format:?} frame {i}");
                // The message header and the first field, as a generated
                // decoder reads them from `&frame[..]`.
                assert_eq!(get_u16_le(frame, 0), 45, "blockLength");
                assert_eq!(get_u16_le(frame, 2), 1, "templateId");
                assert_eq!(get_u64_le(frame, 8), i as u64 + 1, "serialNumber");
            }
            // The splits happened: inside a prefix and inside a message.
            let partial = &frames.decoder().partial;
            assert!(partial.contains(&2), "{format:?}: {partial:?}");
            assert!(partial.contains(&60), "{format:?}: {partial:?}");
        });
    }
}

#[test]
fn a_lying_length_is_an_error() {
    run(async {
        let cars = cars();
        let (mut wire, _) = wire(&FrameFormat::SOFH_LE, &cars[..1]);
        // A length of 2, shorter than the 4-byte header.
        wire.extend([2, 0, 0xfe, 0xca, 1, 2, 3, 4]);
        let (client, server) = serve(pieces(&wire, &[3])).await;
        let mut frames = FramedRead::new(client, FrameCodec::new(FrameFormat::SOFH_LE));
        assert_eq!(&frames.next().await.unwrap().unwrap()[..], &cars[0][..]);
        let err = frames.next().await.unwrap().unwrap_err();
        assert!(
            matches!(
                err,
                CodecError::Frame(e) if e == Error::frame_length(2, 4, 65535)
            ),
            "{err:?}"
        );
        assert!(frames.next().await.is_none(), "nothing after the error");
        server.await.unwrap();
    });
}

#[test]
fn a_stream_cut_mid_message_is_an_error() {
    run(async {
        let cars = cars();
        let (wire, ends) = wire(&FrameFormat::SOFH, &cars[..2]);
        let cut = &wire[..ends[0] + 50];
        let (client, server) = serve(pieces(cut, &[ends[0] + 3])).await;
        let mut frames = FramedRead::new(client, FrameCodec::new(FrameFormat::SOFH));
        assert_eq!(&frames.next().await.unwrap().unwrap()[..], &cars[0][..]);
        let err = frames.next().await.unwrap().unwrap_err();
        assert!(
            matches!(
                err,
                CodecError::Frame(e) if e == Error::truncated(131, 50)
            ),
            "{err:?}"
        );
        server.await.unwrap();
    });
}

#[test]
fn framed_write_writes_the_framing() {
    for format in formats() {
        run(async move {
            let cars = cars();
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let server = tokio::spawn(async move {
                let (mut socket, _) = listener.accept().await.unwrap();
                let mut received = Vec::new();
                socket.read_to_end(&mut received).await.unwrap();
                received
            });
            let client = TcpStream::connect(addr).await.unwrap();
            let mut sink = FramedWrite::new(client, FrameCodec::new(format));
            for car in &cars {
                sink.send(Bytes::copy_from_slice(car)).await.unwrap();
            }
            SinkExt::<Bytes>::close(&mut sink).await.unwrap();
            drop(sink);
            let received = server.await.unwrap();
            assert_eq!(received, wire(&format, &cars).0, "{format:?}");
        });
    }
}
