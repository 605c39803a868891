//! Serializer attributes on the impl block, methods and the entity; compress on and off.
#![deny(warnings)]

use restlight::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
pub struct Item {
    pub id: u64,
}

#[derive(Default)]
pub struct Items;

#[restlight::path("/items")]
#[serializer("json")]
#[compress(false)]
impl Items {
    #[get]
    async fn list(&self) -> Vec<Item> {
        Vec::new()
    }

    #[post]
    #[response_serializer("application/x-www-form-urlencoded")]
    async fn create(&self, #[request_serializer("form")] item: Item) -> Item {
        item
    }

    #[put]
    #[request_serializer("text")]
    #[compress(true)]
    fn replace(&self, name: String) -> String {
        name
    }
}

#[restlight::get("/item")]
#[serializer("application/json")]
async fn one() -> Item {
    Item { id: 1 }
}

fn main() {
    let client = Restlight::new().mock().unwrap();
    let res = client.get("/items").accept("text/plain").send_blocking();
    assert_eq!(res.status(), 200);
    assert_eq!(res.header("content-type"), Some("application/json"));
}
