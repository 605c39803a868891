use restlight::prelude::*;

#[derive(BeanParam)]
pub struct Paging {
    #[query_param]
    #[default_value("20")]
    limit: usize,
    #[query_param("from")]
    offset: Option<u64>,
    #[header_param]
    r#type: Vec<String>,
}

#[restlight::get("/items")]
async fn items(#[bean_param] page: Paging) -> String {
    format!("{} {:?} {:?}", page.limit, page.offset, page.r#type)
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    let res = client.get("/items?from=3").header("type", "a").send_blocking();
    assert_eq!(res.text(), r#"20 Some(3) ["a"]"#);
}
