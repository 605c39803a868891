//! Functions deployed into a running server, FaaS style: routes added and
//! removed while serving, with the same checks as at startup.
//!
//! ```text
//! cargo run --example functions
//! curl -X PUT localhost:8081/functions/hello -d 'Hello from a function'
//! curl localhost:8081/fn/hello                # Hello from a function
//! curl -X PUT localhost:8081/functions/hello -d 'Hello again'   # replaced, never a 404 between
//! curl localhost:8081/functions               # the routes served now, with their ids
//! curl -X DELETE localhost:8081/functions/hello
//! curl -i localhost:8081/fn/hello             # 404
//! curl -X PUT localhost:8081/functions/a%7Bb -d x                # 400: the template does not parse
//! ```

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use restlight::http::Method;
use restlight::prelude::*;
use restlight::App;
use serde_json::json;

fn main() -> restlight::Result<()> {
    // Handlers that change the routes need the application they run in;
    // it exists once the server has started.
    let served: Arc<OnceLock<App>> = Arc::new(OnceLock::new());
    let (deploy_app, remove_app, list_app) = (Arc::clone(&served), Arc::clone(&served), Arc::clone(&served));

    let server = Restlight::new()
        .route(put("/functions/{name}").handle(move |ctx| {
            let app = deploy_app.get().cloned();
            async move { deploy(app, &ctx) }
        }))
        .route(delete("/functions/{name}").handle(move |ctx| {
            let app = remove_app.get().cloned();
            async move {
                let name = ctx.path_param("name").unwrap_or_default();
                match app.map(|app| app.remove_route(Method::GET, &format!("/fn/{name}"))) {
                    Some(Ok(_)) => Ok(NoContent),
                    Some(Err(e)) => Err(HttpError::not_found(e.to_string())),
                    None => Err(HttpError::service_unavailable("starting")),
                }
            }
        }))
        .route(get("/functions").produces("application/json").handle(move |_| {
            let app = list_app.get().cloned();
            async move {
                let routes = app.map(|a| a.routes());
                let list: Vec<_> = routes
                    .iter()
                    .flat_map(|r| r.iter())
                    .map(|r| json!({ "id": r.id, "method": r.method, "path": r.path, "location": r.location }))
                    .collect();
                Json(json!({ "routes": list }))
            }
        }))
        .port(8081)
        .start()?;
    let _ = served.set(server.app().clone());
    println!("functions on http://{}", server.local_addr());
    // Serve until Ctrl-C, then shut down gracefully.
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    rt.block_on(async {
        let _ = tokio::signal::ctrl_c().await;
    });
    server.shutdown();
    Ok(())
}

/// Adds `GET /fn/{name}` answering the request's body, replacing the
/// function of that name in one change if there is one.
fn deploy(app: Option<App>, ctx: &RequestContext) -> Result<Created<String>, HttpError> {
    let app = app.ok_or_else(|| HttpError::service_unavailable("starting"))?;
    let name = ctx.path_param("name").unwrap_or_default();
    let path = format!("/fn/{name}");
    let body: Bytes = ctx.body().clone();
    let function = get(path.as_str()).produces("text/plain").handle(move |_| {
        let body = body.clone();
        async move { body }
    });
    let mut change = app.change_routes();
    if app.routes().get("GET", &path).is_some() {
        change = change.remove_route(Method::GET, &path);
    }
    change.add_route(function).apply().map_err(|e| HttpError::bad_request(e.to_string()))?;
    Ok(Created(path))
}
