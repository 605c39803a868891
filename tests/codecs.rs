//! Codecs and negotiation: Accept against produces and the
//! codecs, q=0, wildcards, 406 and 415 with the lists, declared serializers,
//! the URL format (parameter and suffix) and compression, through the mock
//! client, HTTP/1.1 and h2c.

mod support;

use restlight::prelude::*;
use serde::{Deserialize, Serialize};
#[cfg(any(feature = "compression", feature = "msgpack", feature = "cbor", feature = "protobuf"))]
use support::TestServer;
use support::{Answer, Transport};

#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
pub struct Item {
    pub id: u64,
    pub name: String,
}

fn item() -> Item {
    Item { id: 7, name: "pen".into() }
}

/// No `produces`: every codec able to write the value competes by Accept.
#[restlight::get("/codec/item")]
async fn get_item() -> Item {
    item()
}

/// Reads the entity with whatever codec applies and echoes it.
#[restlight::post("/codec/item")]
async fn post_item(item: Item) -> Item {
    item
}

/// Declared on the method: form whatever `Accept` says.
#[restlight::get("/codec/declared")]
#[response_serializer("form")]
async fn declared() -> Item {
    item()
}

/// Declared on the entity: read as form whatever Content-Type says.
#[restlight::post("/codec/declared")]
async fn declared_entity(#[request_serializer("application/x-www-form-urlencoded")] item: Item) -> Item {
    item
}

/// `produces` narrows the codecs; two of them chosen by Accept.
#[restlight::get("/codec/narrow")]
#[produces("application/json", "application/x-www-form-urlencoded")]
async fn narrow() -> Item {
    item()
}

#[restlight::get("/codec/files/{name}")]
async fn file(#[path_param] name: String) -> String {
    name
}

#[restlight::get("/codec/static/report.json")]
async fn static_report() -> &'static str {
    "static"
}

fn app() -> Restlight {
    Restlight::new()
        .route(get("/codec/built").serializer("form").handle(|_| async { Entity(item()) }))
        .route(get("/codec/big").handle(|_| async { Entity(vec![item(); 200]) }))
        .route(get("/codec/big-plain").compress(false).handle(|_| async { Entity(vec![item(); 200]) }))
}

const FORM: &str = "application/x-www-form-urlencoded";
const FORM_BODY: &str = "id=7&name=pen";

fn accept(value: &str) -> [(&str, &str); 1] {
    [("accept", value)]
}

fn is_form(a: &Answer) -> bool {
    a.status == 200 && a.header("content-type") == Some(FORM) && a.body == FORM_BODY
}

fn is_json(a: &Answer) -> bool {
    a.status == 200 && a.header("content-type") == Some("application/json") && a.json()["id"] == 7
}

async fn negotiation(t: &Transport) {
    // No Accept, `*/*`, `application/*`: the highest-priority codec, JSON.
    for value in [None, Some("*/*"), Some("application/*")] {
        let headers: Vec<(&str, &str)> = value.map(|v| ("accept", v)).into_iter().collect();
        let a = t.call("GET", "/codec/item", &headers, "").await;
        assert!(is_json(&a), "Accept {value:?}: {a:?}");
    }
    // Two codecs on one route, chosen by Accept (q-values, specificity).
    assert!(is_form(&t.call("GET", "/codec/item", &accept(FORM), "").await));
    let a =
        t.call("GET", "/codec/item", &accept("application/json;q=0.5, application/x-www-form-urlencoded"), "").await;
    assert!(is_form(&a), "{a:?}");
    let a = t.call("GET", "/codec/item", &accept("application/*;q=0.9, application/json"), "").await;
    assert!(is_json(&a), "the more specific range decides JSON's weight: {a:?}");
    // q=0 excludes, even under a wildcard.
    let a = t.call("GET", "/codec/item", &accept("application/json;q=0, */*;q=0.1"), "").await;
    assert!(a.status == 200 && a.header("content-type") != Some("application/json"), "{a:?}");
    // A type the value cannot take (text for a struct) passes to the next acceptable one.
    let a = t.call("GET", "/codec/item", &accept("text/plain, application/json;q=0.2"), "").await;
    assert!(is_json(&a), "{a:?}");
    // Nothing acceptable: 406 naming the producible types.
    for value in ["image/png", "text/plain", "application/json;q=0, application/x-www-form-urlencoded;q=0, text/*;q=0"]
    {
        let a = t.call("GET", "/codec/item", &[("accept", value), ("x", "y")], "").await;
        assert_eq!(a.status, 406, "Accept {value}: {a:?}");
        if a.header("content-type") == Some("application/problem+json") {
            let listed = a.json()["producible"].to_string();
            assert!(listed.contains("application/json") && listed.contains(FORM), "{listed}");
        } else {
            assert!(a.body.contains("producible: application/json"), "{}", a.body);
        }
    }
    // `produces` narrows; Accept picks between its two.
    assert!(is_form(&t.call("GET", "/codec/narrow", &accept(FORM), "").await));
    assert!(is_json(&t.call("GET", "/codec/narrow", &accept("*/*"), "").await));
    let a = t.call("GET", "/codec/narrow", &accept("application/cbor"), "").await;
    assert_eq!(a.status, 406);
    assert_eq!(a.json()["producible"], serde_json::json!(["application/json", FORM]));

    // The entity by Content-Type, parameters such as charset aside.
    let json = r#"{"id":7,"name":"pen"}"#;
    for ct in ["application/json", "application/json; charset=UTF-8", "application/vnd.item+json"] {
        let a = t.call("POST", "/codec/item", &[("content-type", ct)], json).await;
        assert!(is_json(&a), "Content-Type {ct}: {a:?}");
    }
    let a = t.call("POST", "/codec/item", &[("content-type", FORM), ("accept", FORM)], FORM_BODY).await;
    assert!(is_form(&a), "{a:?}");
    // 415 naming the readable types; 400 naming the field.
    let a = t.call("POST", "/codec/item", &[("content-type", "application/xml")], "<item/>").await;
    assert_eq!(a.status, 415, "{a:?}");
    assert!(a.json()["consumable"].to_string().contains("application/json"), "{}", a.body);
    let a = t.call("POST", "/codec/item", &[("content-type", "application/json")], r#"{"id":"x","name":"pen"}"#).await;
    assert_eq!((a.status, a.json()["path"].as_str()), (400, Some("id")), "{a:?}");

    // Declared serializers override negotiation: attribute and builder.
    assert!(is_form(&t.call("GET", "/codec/declared", &accept("application/json"), "").await));
    assert!(is_form(&t.call("GET", "/codec/built", &accept("application/json"), "").await));
    let a = t.call("POST", "/codec/declared", &[("content-type", "application/json")], FORM_BODY).await;
    assert!(is_json(&a), "read as form whatever Content-Type says, written by Accept: {a:?}");
}

async fn url_format(t: &Transport) {
    // The parameter wins over Accept; an unknown format is 406 with the list.
    assert!(is_form(&t.call("GET", "/codec/item?format=form", &accept("application/json"), "").await));
    assert!(is_json(&t.call("GET", "/codec/item?format=json", &accept(FORM), "").await));
    let a = t.call("GET", "/codec/item?format=xml", &[], "").await;
    assert_eq!(a.status, 406);
    assert!(a.json()["formats"].to_string().contains("json"), "{}", a.body);
    // The suffix: stripped before routing.
    assert!(is_form(&t.call("GET", "/codec/item.form", &[], "").await));
    assert!(is_json(&t.call("GET", "/codec/item.json", &accept(FORM), "").await));
    // The suffix is stripped from a variable too, as Spring does...
    let a = t.call("GET", "/codec/files/report.json", &[], "").await;
    assert_eq!((a.status, a.body.as_str()), (200, "report"), "{a:?}");
    // ...and a path whose stripped form has no route is routed as sent.
    let a = t.call("GET", "/codec/static/report.json", &[], "").await;
    assert_eq!((a.status, a.body.as_str()), (200, "static"), "{a:?}");
    // An unknown suffix stays part of the path.
    assert_eq!(t.call("GET", "/codec/item.xml", &[], "").await.status, 404);
}

fn transports(app: impl Fn() -> Restlight) -> Vec<Transport> {
    vec![Transport::mock(app()), Transport::http1(app()), Transport::h2c(app())]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiation_by_accept_and_content_type() {
    for t in transports(app) {
        negotiation(&t).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiation_by_url() {
    for t in transports(|| app().format_parameter("format").format_suffix(true)) {
        url_format(&t).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn url_negotiation_is_off_by_default() {
    let t = Transport::mock(app());
    assert!(is_json(&t.call("GET", "/codec/item?format=form", &[], "").await));
    assert_eq!(t.call("GET", "/codec/item.json", &[], "").await.status, 404);
}

/// Without the `compression` feature an encoded body is refused, not
/// handed over undecoded.
#[cfg(not(feature = "compression"))]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn encoded_request_without_the_feature_is_415() {
    let t = Transport::mock(app());
    let a = t.call("POST", "/codec/item", &[("content-encoding", "gzip")], "x").await;
    assert_eq!(a.status, 415, "{a:?}");
    assert!(a.body.contains("Content-Encoding"), "{}", a.body);
}

#[cfg(feature = "compression")]
mod compression {
    use std::io::{Read, Write};

    use super::*;

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    fn decode(coding: &str, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        match coding {
            "gzip" => flate2::read::GzDecoder::new(data).read_to_end(&mut out).unwrap(),
            "br" => brotli::Decompressor::new(data, 4096).read_to_end(&mut out).unwrap(),
            "zstd" => zstd::stream::read::Decoder::new(data).unwrap().read_to_end(&mut out).unwrap(),
            other => panic!("unexpected coding {other}"),
        };
        out
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn compressed_round_trips() {
        for client in [support::http1(), support::h2c()] {
            let server = TestServer::start(app().max_body_size(64 * 1024));
            // Responses by Accept-Encoding, q-values honoured, above the threshold only.
            for (ae, want) in [("gzip", "gzip"), ("br", "br"), ("zstd", "zstd"), ("gzip, br;q=0.5", "gzip")] {
                let res = client.get(server.url("/codec/big")).header("accept-encoding", ae).send().await.unwrap();
                assert_eq!(res.headers()["content-encoding"], want);
                let body = res.bytes().await.unwrap();
                let items: Vec<Item> = serde_json::from_slice(&decode(want, &body)).unwrap();
                assert_eq!(items.len(), 200);
            }
            let small = client.get(server.url("/codec/item")).header("accept-encoding", "gzip").send().await.unwrap();
            assert!(small.headers().get("content-encoding").is_none(), "below the 1 KiB threshold");
            let off =
                client.get(server.url("/codec/big-plain")).header("accept-encoding", "gzip").send().await.unwrap();
            assert!(off.headers().get("content-encoding").is_none(), "compression off for the route");
            let none = client.get(server.url("/codec/big")).header("accept-encoding", "gzip;q=0").send().await.unwrap();
            assert!(none.headers().get("content-encoding").is_none());

            // A gzip request body is decoded.
            let body = gzip(br#"{"id":7,"name":"pen"}"#);
            let res = client
                .post(server.url("/codec/item"))
                .header("content-type", "application/json")
                .header("content-encoding", "gzip")
                .body(body)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 200);
            assert_eq!(res.json::<Item>().await.unwrap(), item());

            // A zip bomb: 10 MiB of zeros in ~10 KiB, past the 64 KiB limit once inflated.
            let bomb = gzip(&vec![0u8; 10 * 1024 * 1024]);
            assert!(bomb.len() < 64 * 1024);
            let res = client
                .post(server.url("/codec/item"))
                .header("content-type", "application/json")
                .header("content-encoding", "gzip")
                .body(bomb)
                .send()
                .await
                .unwrap();
            assert_eq!(res.status(), 413);
            let problem: serde_json::Value = res.json().await.unwrap();
            assert_eq!(problem["limit"], 64 * 1024);
        }
    }
}

#[cfg(feature = "msgpack")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn msgpack_round_trip() {
    let server = TestServer::start(app());
    let body = rmp_serde::to_vec_named(&item()).unwrap();
    let res = support::http1()
        .post(server.url("/codec/item"))
        .header("content-type", "application/msgpack")
        .header("accept", "application/msgpack")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "application/msgpack");
    let back: Item = rmp_serde::from_slice(&res.bytes().await.unwrap()).unwrap();
    assert_eq!(back, item());
}

#[cfg(feature = "cbor")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cbor_round_trip() {
    let server = TestServer::start(app());
    let mut body = Vec::new();
    ciborium::into_writer(&item(), &mut body).unwrap();
    let res = support::h2c()
        .post(server.url("/codec/item"))
        .header("content-type", "application/cbor")
        .header("accept", "application/cbor")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "application/cbor");
    let back: Item = ciborium::from_reader(&res.bytes().await.unwrap()[..]).unwrap();
    assert_eq!(back, item());
}

#[cfg(feature = "protobuf")]
mod protobuf {
    use restlight::codec::Protobuf;

    use super::*;

    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Ping {
        #[prost(string, tag = "1")]
        pub text: String,
    }

    #[restlight::post("/codec/proto")]
    async fn echo(ping: Protobuf<Ping>) -> Protobuf<Ping> {
        Protobuf(Ping { text: format!("{}!", ping.0.text) })
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn protobuf_round_trip() {
        use prost::Message;
        let server = TestServer::start(app());
        let res = support::http1()
            .post(server.url("/codec/proto"))
            .header("content-type", "application/x-protobuf")
            .body(Ping { text: "ping".into() }.encode_to_vec())
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["content-type"], "application/x-protobuf");
        let back = Ping::decode(res.bytes().await.unwrap()).unwrap();
        assert_eq!(back.text, "ping!");
        let wrong = support::http1()
            .post(server.url("/codec/proto"))
            .header("content-type", "application/json")
            .body("{}")
            .send()
            .await
            .unwrap();
        assert_eq!(wrong.status(), 415);
    }
}

/// An entity whose integers may be written as JSON Schema allows (`8.0`).
#[derive(Debug, Serialize, Deserialize)]
pub struct Order {
    #[serde(deserialize_with = "restlight::integer::deserialize")]
    pub quantity: i32,
    #[serde(default, deserialize_with = "restlight::integer::deserialize")]
    pub lines: Vec<u64>,
}

#[restlight::post("/codec/order")]
async fn post_order(order: Order) -> String {
    format!("{} {:?}", order.quantity, order.lines)
}

#[test]
fn integers_written_with_a_zero_fraction_are_read_where_the_entity_says_so() {
    let client = app().mock().unwrap();
    let res = client
        .post("/codec/order")
        .content_type("application/json")
        .body(r#"{"quantity": 8.0, "lines": [1e2, 3]}"#)
        .send_blocking();
    assert_eq!((res.status().as_u16(), res.text()), (200, "8 [100, 3]".to_owned()));
    // A fraction is still a 400 naming the field and the value.
    let res = client.post("/codec/order").content_type("application/json").body(r#"{"quantity": 8.5}"#).send_blocking();
    assert_eq!(res.status(), 400);
    let problem: serde_json::Value = res.json();
    assert_eq!(problem["path"], "quantity", "{problem}");
    assert!(
        problem["detail"].as_str().unwrap().contains("floating point `8.5`, expected an integer (i32)"),
        "{problem}"
    );
    // Without the attribute serde refuses `8.0` for an integer.
    let res = client
        .post("/codec/item")
        .content_type("application/json")
        .body(r#"{"id": 7.0, "name": "pen"}"#)
        .send_blocking();
    assert_eq!(res.status(), 400, "{}", res.text());
}
