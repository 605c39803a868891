#[restlight::get("/hello")]
async fn hello(#[header_param("X Tenant")] tenant: String) -> String {
    tenant
}

fn main() {}
