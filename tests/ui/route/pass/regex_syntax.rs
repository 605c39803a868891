// The regex syntax route templates use, as the router's engine compiles it:
// classes, counted repetition, alternation, optional parts, groups.
#[restlight::get("/r/{id: \\d+}/{zip: [0-9]{3}-[0-9]{4}}/{name: [a-z]+}/{file: \\w+\\.(png|jpe?g)}")]
async fn one(
    #[path_param] id: u64,
    #[path_param] zip: String,
    #[path_param] name: String,
    #[path_param] file: String,
) -> String {
    format!("{id} {zip} {name} {file}")
}

#[restlight::get("/files/{path: .+}/{rev: (?i)[a-f0-9]{7,40}}")]
async fn two(#[path_param] path: String, #[path_param] rev: String) -> String {
    format!("{path} {rev}")
}

fn main() {}
