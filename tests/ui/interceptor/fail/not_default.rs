use restlight::prelude::*;

struct Auth(u8);

#[restlight::interceptor(order = 1)]
impl Interceptor for Auth {}

fn main() {
    let _ = Auth(1).0;
}
