//! Value parameters from every source: required, `Option<T>`, `Vec<T>`,
//! defaults, explicit and default names, mixed template segments.
#![deny(warnings)]

use restlight::prelude::*;

#[derive(Default)]
struct Search;

#[restlight::path("/v{major}.{minor}")]
#[produces("text/plain")]
impl Search {
    #[get("/search/{name}.html")]
    #[allow(clippy::too_many_arguments)]
    async fn search(
        &self,
        #[path_param] major: u8,
        #[path_param("minor")] min: u8,
        #[path_param] name: String,
        #[query_param("q")] query: String,
        #[query_param] #[default_value("10")] limit: usize,
        #[query_param] page: Option<u32>,
        #[query_param("tag")] tags: Vec<String>,
        #[header_param("X-Tenant")] tenant: Option<String>,
        #[header_param] accept_language: Option<String>,
        #[cookie_param] session: Option<String>,
    ) -> String {
        format!(
            "v{major}.{min} {name} q={query} limit={limit} page={page:?} tags={tags:?} tenant={tenant:?} lang={accept_language:?} session={session:?}"
        )
    }

    #[post("/form")]
    async fn form(&self, #[form_param] a: i64, #[form_param("b")] #[default_value("2")] b: i64) -> String {
        (a + b).to_string()
    }

    #[get("/files/{path: .*}")]
    async fn file(&self, #[path_param] path: String, #[matrix_param] rev: Option<u32>) -> String {
        format!("{path} {rev:?}")
    }

    #[get("/zip/{zip: \\d{3}-\\d{4}}")]
    async fn zip(&self, #[path_param] zip: String) -> String {
        zip
    }

    #[get("/raw/{type}")]
    async fn raw(&self, #[path_param] r#type: String) -> String {
        r#type
    }
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    let res = client
        .get("/v1.2/search/rust.html?q=macros&page=3&tag=a&tag=b")
        .header("X-Tenant", "acme")
        .header("Accept-Language", "fr")
        .cookie("session", "s1")
        .send_blocking();
    assert_eq!(
        res.text(),
        "v1.2 rust q=macros limit=10 page=Some(3) tags=[\"a\", \"b\"] tenant=Some(\"acme\") lang=Some(\"fr\") session=Some(\"s1\")"
    );
    assert_eq!(client.get("/v1.2/search/x.html").send_blocking().status(), 400);
    assert_eq!(client.post("/v1.2/form").form(&[("a", "40")]).send_blocking().text(), "42");
    assert_eq!(client.get("/v1.2/files/a/b.txt").send_blocking().text(), "a/b.txt None");
    assert_eq!(client.get("/v1.2/zip/123-4567").send_blocking().text(), "123-4567");
    assert_eq!(client.get("/v1.2/raw/t").send_blocking().text(), "t");
}
