//! Parameters from every source, through the mock client: conversion,
//! defaults, `Option`, `Vec`, names, percent-decoding, beans and the request.

use restlight::prelude::*;
use restlight::test::MockClient;
use serde::Serialize;

#[derive(Default)]
struct Params;

/// A bean, resolved by type at startup.
struct Greeting(&'static str);

#[derive(Serialize)]
struct Echo {
    values: Vec<String>,
}

#[restlight::path("/p")]
#[produces("text/plain")]
impl Params {
    #[get]
    #[path("/query")]
    async fn query(
        &self,
        #[query_param] n: i32,
        #[query_param("opt")] maybe: Option<u8>,
        #[query_param]
        #[default_value("7")]
        dflt: u64,
        #[query_param] tag: Vec<String>,
    ) -> String {
        format!("n={n} maybe={maybe:?} dflt={dflt} tag={tag:?}")
    }

    #[get]
    #[path("/header")]
    async fn header(
        &self,
        #[header_param("X-Count")] count: u32,
        #[header_param] accept_language: Option<String>,
    ) -> String {
        format!("count={count} lang={accept_language:?}")
    }

    #[get]
    #[path("/cookie")]
    async fn cookie(&self, #[cookie_param] session: String, #[cookie_param("theme")] t: Option<String>) -> String {
        format!("session={session} theme={t:?}")
    }

    #[get]
    #[path("/matrix/{name}")]
    async fn matrix(
        &self,
        #[path_param] name: String,
        #[matrix_param] color: Option<String>,
        #[matrix_param] size: Vec<u32>,
    ) -> String {
        format!("name={name} color={color:?} size={size:?}")
    }

    #[post]
    #[path("/form")]
    #[consumes("application/x-www-form-urlencoded")]
    async fn form(
        &self,
        #[form_param] name: String,
        #[form_param]
        #[default_value("1")]
        qty: u16,
    ) -> String {
        format!("name={name} qty={qty}")
    }

    #[get]
    #[path("/files/{path: .*}")]
    async fn files(&self, #[path_param] path: String) -> String {
        path
    }

    #[get]
    #[path("/seg/{a}/{b}")]
    async fn seg(&self, #[path_param] a: String, #[path_param] b: String) -> String {
        format!("{a}|{b}")
    }

    #[get]
    #[path("/ctx")]
    async fn ctx(
        &self,
        #[context] greeting: &Greeting,
        #[context] req: &RequestContext,
        #[context] headers: &http::HeaderMap,
    ) -> String {
        format!("{} {} {} {}", greeting.0, req.method(), req.uri().path(), headers.len())
    }

    #[get]
    #[path("/many/{a}/{b}/{c}/{d}/{e}/{f}/{g}/{h}/{i}/{j}/{k}/{l}/{m}")]
    #[allow(clippy::too_many_arguments)]
    async fn many(
        &self,
        #[path_param] a: u8,
        #[path_param] b: u8,
        #[path_param] c: u8,
        #[path_param] d: u8,
        #[path_param] e: u8,
        #[path_param] f: u8,
        #[path_param] g: u8,
        #[path_param] h: u8,
        #[path_param] i: u8,
        #[path_param] j: u8,
        #[path_param] k: u8,
        #[path_param] l: u8,
        #[path_param] m: u8,
    ) -> String {
        let sum: u32 = [a, b, c, d, e, f, g, h, i, j, k, l, m].iter().map(|&x| u32::from(x)).sum();
        sum.to_string()
    }

    #[get]
    #[path("/json")]
    #[produces("application/json")]
    fn json(&self, #[query_param("v")] values: Vec<String>) -> Echo {
        Echo { values }
    }
}

fn client() -> MockClient {
    Restlight::new().bean(Greeting("hi")).mock().expect("app builds")
}

#[tokio::test]
async fn query_parameters_convert_default_and_repeat() {
    let c = client();
    let cases = [
        ("/p/query?n=-3", 200, "n=-3 maybe=None dflt=7 tag=[]"),
        ("/p/query?n=1&opt=9&dflt=8&tag=a&tag=b", 200, "n=1 maybe=Some(9) dflt=8 tag=[\"a\", \"b\"]"),
        ("/p/query?n=1&n=2", 200, "n=1 maybe=None dflt=7 tag=[]"),
        ("/p/query?n=1&tag=a%20b&tag=c+d", 200, "n=1 maybe=None dflt=7 tag=[\"a b\", \"c d\"]"),
        ("/p/query?n=1&dflt=", 200, "n=1 maybe=None dflt=7 tag=[]"),
    ];
    for (uri, status, body) in cases {
        let res = c.get(uri).send().await;
        assert_eq!((res.status().as_u16(), res.text().as_str()), (status, body), "{uri}");
    }
}

#[tokio::test]
async fn bad_and_missing_values_are_400_naming_the_parameter() {
    let c = client();
    let cases = [
        ("/p/query", "n", "query", None),
        ("/p/query?n=x", "n", "query", Some("x")),
        ("/p/query?n=1&opt=300", "opt", "query", Some("300")),
        ("/p/query?n=1&dflt=-1", "dflt", "query", Some("-1")),
    ];
    for (uri, name, source, value) in cases {
        let res = c.get(uri).send().await;
        assert_eq!(res.status(), 400, "{uri}");
        assert_eq!(res.header("content-type"), Some("application/problem+json"));
        let problem: serde_json::Value = res.json();
        assert_eq!(problem["parameter"], name, "{uri}");
        assert_eq!(problem["source"], source, "{uri}");
        assert_eq!(problem["status"], 400);
        if let Some(v) = value {
            assert_eq!(problem["value"], v, "{uri}");
            assert!(problem["detail"].as_str().unwrap().contains(v), "{problem}");
        } else {
            // The wording and fields of every missing value (a multipart
            // part's too: `tests/spring_parts.rs`).
            assert_eq!(problem["detail"], format!("missing required {source} parameter `{name}`"), "{uri}");
            let mut fields: Vec<&String> = problem.as_object().unwrap().keys().collect();
            fields.sort();
            assert_eq!(fields, ["detail", "parameter", "source", "status", "title", "type"], "{problem}");
        }
    }
}

#[tokio::test]
async fn headers_and_cookies() {
    let c = client();
    let res = c.get("/p/header").header("x-count", "4").header("accept-language", "fr").send().await;
    assert_eq!(res.text(), "count=4 lang=Some(\"fr\")");
    let res = c.get("/p/header").send().await;
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<serde_json::Value>()["parameter"], "X-Count");

    let res = c.get("/p/cookie").header("cookie", "theme=dark; session=abc").send().await;
    assert_eq!(res.text(), "session=abc theme=Some(\"dark\")");
    let res = c.get("/p/cookie").send().await;
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<serde_json::Value>()["source"], "cookie");
}

#[tokio::test]
async fn matrix_parameters_are_stripped_before_matching() {
    let c = client();
    let res = c.get("/p/matrix/shirt;color=red;size=1;size=2").send().await;
    assert_eq!(res.text(), "name=shirt color=Some(\"red\") size=[1, 2]");
    let res = c.get("/p/matrix/shirt").send().await;
    assert_eq!(res.text(), "name=shirt color=None size=[]");
}

#[tokio::test]
async fn form_parameters_from_an_urlencoded_body() {
    let c = client();
    let res = c.post("/p/form").form(&[("name", "Ada Lovelace")]).send().await;
    assert_eq!(res.text(), "name=Ada Lovelace qty=1");
    let res = c.post("/p/form").form(&[("name", "x"), ("qty", "many")]).send().await;
    assert_eq!(res.status(), 400);
    assert_eq!(res.json::<serde_json::Value>()["source"], "form");
}

#[tokio::test]
async fn path_values_are_decoded_after_matching() {
    let c = client();
    assert_eq!(c.get("/p/seg/a%2Fb/c").send().await.text(), "a/b|c");
    assert_eq!(c.get("/p/seg/caf%C3%A9/x%20y").send().await.text(), "café|x y");
    assert_eq!(c.get("/p/files/a/b/c.txt").send().await.text(), "a/b/c.txt");
    assert_eq!(c.get("/p/seg/a%00/b").send().await.status(), 400);
    assert_eq!(c.get("/p/seg/%zz/b").send().await.status(), 400);
}

#[tokio::test]
async fn context_gives_beans_and_the_request() {
    let c = client();
    let res = c.get("/p/ctx").header("x-a", "1").send().await;
    assert_eq!(res.text(), "hi GET /p/ctx 2");
}

#[tokio::test]
async fn no_limit_on_the_number_of_parameters() {
    let c = client();
    assert_eq!(c.get("/p/many/1/2/3/4/5/6/7/8/9/10/11/12/13").send().await.text(), "91");
}

#[tokio::test]
async fn serialize_values_from_a_plain_fn() {
    let c = client();
    let res = c.get("/p/json?v=a&v=b").send().await;
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(res.text(), r#"{"values":["a","b"]}"#);
}

#[test]
fn a_missing_bean_fails_startup_naming_its_type() {
    let err = Restlight::new().build().unwrap_err().to_string();
    assert!(err.contains("Greeting"), "{err}");
}
