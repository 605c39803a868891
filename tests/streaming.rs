//! Annotated handlers that take the body as a stream: the route is marked
//! at startup and its body is not aggregated, so the application's 4 MiB
//! limit does not apply unless the route sets one.

use restlight::prelude::*;

#[derive(Default)]
struct Uploads;

#[restlight::path("/uploads")]
#[produces("text/plain")]
impl Uploads {
    #[post]
    async fn upload(&self, mut body: BodyStream) -> Result<String, HttpError> {
        let mut total = 0_usize;
        while let Some(chunk) = body.chunk().await {
            total += chunk?.len();
        }
        Ok(total.to_string())
    }

    #[post("/limited")]
    #[max_body("1KiB")]
    async fn limited(&self, mut body: BodyStream) -> Result<String, HttpError> {
        let mut total = 0_usize;
        while let Some(chunk) = body.chunk().await {
            total += chunk?.len();
        }
        Ok(total.to_string())
    }

    #[post("/buffered")]
    async fn buffered(&self, body: Vec<u8>) -> String {
        body.len().to_string()
    }
}

#[test]
fn a_stream_entity_is_not_held_to_the_aggregation_limit() {
    let client = Restlight::new().mock().unwrap();
    let big = vec![7_u8; 6 << 20];
    let res = client.post("/uploads").body(big.clone()).send_blocking();
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text(), (6 << 20).to_string());

    // The same body on a buffered route is over the 4 MiB default.
    assert_eq!(client.post("/uploads/buffered").body(big).send_blocking().status(), StatusCode::PAYLOAD_TOO_LARGE);
}

#[test]
fn a_stream_entity_keeps_an_explicit_limit() {
    let client = Restlight::new().mock().unwrap();
    assert_eq!(client.post("/uploads/limited").body(vec![1_u8; 1024]).send_blocking().text(), "1024");
    let res = client.post("/uploads/limited").body(vec![1_u8; 1025]).send_blocking();
    assert_eq!(res.status(), StatusCode::PAYLOAD_TOO_LARGE);
}
