//! Codec sizes and speeds in the shapes SmartBuf measured
//! (`cargo bench --bench codecs`): a single string, a user object with
//! nested fields, a list of 100 posts; JSON, MessagePack, CBOR, protobuf,
//! JSON+gzip and JSON+zstd. The encoded sizes are printed once at start.

use std::hint::black_box;
use std::io::{Read, Write};

use criterion::{criterion_group, criterion_main, Criterion};
use prost::Message;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Clone, PartialEq, Message)]
pub struct Text {
    #[prost(string, tag = "1")]
    pub value: String,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Message)]
pub struct Address {
    #[prost(string, tag = "1")]
    pub street: String,
    #[prost(string, tag = "2")]
    pub city: String,
    #[prost(string, tag = "3")]
    pub zip: String,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Message)]
pub struct User {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(string, tag = "2")]
    pub name: String,
    #[prost(string, tag = "3")]
    pub email: String,
    #[prost(bool, tag = "4")]
    pub active: bool,
    #[prost(message, optional, tag = "5")]
    pub address: Option<Address>,
    #[prost(string, repeated, tag = "6")]
    pub tags: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Message)]
pub struct Post {
    #[prost(uint64, tag = "1")]
    pub id: u64,
    #[prost(uint64, tag = "2")]
    pub user_id: u64,
    #[prost(string, tag = "3")]
    pub title: String,
    #[prost(string, tag = "4")]
    pub body: String,
    #[prost(uint32, tag = "5")]
    pub likes: u32,
}

#[derive(Serialize, Deserialize, Clone, PartialEq, Message)]
pub struct Posts {
    #[prost(message, repeated, tag = "1")]
    pub posts: Vec<Post>,
}

fn text() -> Text {
    Text { value: "Hello Restlight, a single string of moderate length!".into() }
}

fn user() -> User {
    User {
        id: 42,
        name: "Ada Lovelace".into(),
        email: "ada@example.com".into(),
        active: true,
        address: Some(Address { street: "12 St James's Square".into(), city: "London".into(), zip: "SW1Y 4JH".into() }),
        tags: vec!["admin".into(), "math".into(), "engines".into()],
    }
}

fn posts() -> Posts {
    Posts {
        posts: (0..100)
            .map(|i| Post {
                id: i,
                user_id: i % 7,
                title: format!("Post number {i}"),
                body: format!("The body of post {i}: lorem ipsum dolor sit amet, consectetur adipiscing elit."),
                likes: u32::try_from(i * 3).unwrap_or(0),
            })
            .collect(),
    }
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(data).expect("gzip");
    enc.finish().expect("gzip")
}

fn gunzip(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(data).read_to_end(&mut out).expect("gunzip");
    out
}

type Enc<T> = fn(&T) -> Vec<u8>;
type Dec<T> = fn(&[u8]) -> T;

fn formats<T: Serialize + DeserializeOwned + Message + Default>() -> Vec<(&'static str, Enc<T>, Dec<T>)> {
    vec![
        ("json", |v| serde_json::to_vec(v).expect("json"), |b| serde_json::from_slice(b).expect("json")),
        ("msgpack", |v| rmp_serde::to_vec_named(v).expect("msgpack"), |b| rmp_serde::from_slice(b).expect("msgpack")),
        (
            "cbor",
            |v| {
                let mut out = Vec::new();
                ciborium::into_writer(v, &mut out).expect("cbor");
                out
            },
            |b| ciborium::from_reader(b).expect("cbor"),
        ),
        ("protobuf", |v| v.encode_to_vec(), |b| T::decode(b).expect("protobuf")),
        (
            "json+gzip",
            |v| gzip(&serde_json::to_vec(v).expect("json")),
            |b| serde_json::from_slice(&gunzip(b)).expect("json"),
        ),
        (
            "json+zstd",
            |v| zstd::bulk::compress(&serde_json::to_vec(v).expect("json"), 3).expect("zstd"),
            |b| serde_json::from_slice(&zstd::decode_all(b).expect("zstd")).expect("json"),
        ),
    ]
}

fn shape<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: Serialize + DeserializeOwned + Message + Default + PartialEq,
{
    let mut group = c.benchmark_group(format!("codecs/{name}"));
    for (format, encode, decode) in formats::<T>() {
        let bytes = encode(value);
        assert!(decode(&bytes) == *value, "{format} round-trips {name}");
        eprintln!("size {name:<6} {format:<10} {:>6} bytes", bytes.len());
        group.bench_function(format!("{format}/encode"), |b| b.iter(|| encode(black_box(value))));
        group.bench_function(format!("{format}/decode"), |b| b.iter(|| decode(black_box(&bytes))));
    }
    group.finish();
}

fn codecs(c: &mut Criterion) {
    shape(c, "string", &text());
    shape(c, "user", &user());
    shape(c, "posts", &posts());
}

criterion_group!(benches, codecs);
criterion_main!(benches);
