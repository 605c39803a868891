// The router's regex engine (`regex-lite`) has no Unicode classes: the
// macro refuses `\p{L}` at the variable's regex, with what to write instead.
#[restlight::get("/tags/{tag: \\p{L}+}")]
async fn tag(#[path_param] tag: String) -> String {
    tag
}

fn main() {}
