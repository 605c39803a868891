struct Agent;

#[restlight::get("/hello")]
async fn hello(#[header_param("User-Agent")] agents: Vec<Agent>) -> String {
    agents.len().to_string()
}

fn main() {}
