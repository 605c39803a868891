//! The service in actix-web 4 (HTTP/1.1 and h2c by prior knowledge through
//! `listen_auto_h2c`), one worker per core the process may run on.

use actix_web::http::header::ContentType;
use actix_web::{web, App, HttpResponse, HttpServer};
use restlight_load::{decoys, order_text, port_from_args, Message, DECOY, HELLO, TEXT_PLAIN};

async fn hello() -> HttpResponse {
    HttpResponse::Ok().content_type(TEXT_PLAIN).body(HELLO)
}

async fn json() -> HttpResponse {
    HttpResponse::Ok().json(Message { message: HELLO })
}

async fn order(path: web::Path<(u64, u64)>) -> HttpResponse {
    let (id, order) = path.into_inner();
    HttpResponse::Ok().content_type(TEXT_PLAIN).body(order_text(id, order))
}

async fn echo(body: web::Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::octet_stream()).body(body)
}

async fn decoy() -> HttpResponse {
    HttpResponse::Ok().content_type(TEXT_PLAIN).body(DECOY)
}

fn main() -> std::io::Result<()> {
    let port = port_from_args();
    // Workers default to the cores in the affinity mask, like tokio's default.
    let workers = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let listener = std::net::TcpListener::bind(("127.0.0.1", port))?;
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(|| {
            let mut app = App::new()
                .route("/hello", web::get().to(hello))
                .route("/json", web::get().to(json))
                .route("/echo", web::post().to(echo));
            for d in decoys() {
                app = app.route(&d, web::get().to(decoy));
            }
            app.route("/users/{id}/orders/{order}", web::get().to(order))
        })
        .workers(workers)
        .tcp_nodelay(true)
        .listen_auto_h2c(listener)?
        .run()
        .await
    })
}
