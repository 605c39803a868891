use restlight::prelude::*;

#[derive(Default)]
struct Auth;

#[restlight::interceptor(include = ["/api/**"], excludes = "/x", order = "1")]
impl Interceptor for Auth {}

fn main() {}
