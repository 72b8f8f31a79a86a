//! `irilint lsp`: a language server over stdio.
//!
//! A plain loop over the client's messages (rust-analyzer's `lsp-server` types, read and written
//! by [`transport`], which survives whatever bytes a client sends), with the state in one struct
//! ([`server::Server`]) and every position conversion in [`positions`]. Documents are checked on
//! a worker thread after a short pause in typing; a result is published only if the document is
//! still at the version it was checked at (the latest version wins, stale results are dropped).
//! Checks go through the same configuration, suppressions and rules as `irilint check`.

pub mod actions;
pub mod diagnostics;
pub mod document;
mod oversized;
pub mod positions;
mod server;
mod transport;

use std::time::{Duration, Instant};

use crossbeam_channel::select;
use lsp_server::{Connection, Message};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, DiagnosticOptions,
    DiagnosticServerCapabilities, HoverProviderCapability, InitializeParams, SaveOptions,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions,
};

use positions::Encoding;
use server::{Flow, Server};

/// How long typing must pause before a changed document is checked again.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Runs the server on stdin/stdout until the client says `exit` or goes away. Returns whether
/// the exit was orderly (`shutdown` before `exit`).
pub fn run() -> Result<bool, String> {
    let (connection, threads) = transport::stdio();
    let orderly = serve(&connection)?;
    drop(connection);
    threads.join();
    Ok(orderly)
}

/// The whole session on `connection`: the handshake, then the loop.
pub fn serve(connection: &Connection) -> Result<bool, String> {
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| format!("LSP handshake failed: {e}"))?;
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("bad initialize request: {e}"))?;
    let encoding = Encoding::negotiate(
        params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let capabilities = ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("irilint".into()),
            inter_file_dependencies: false,
            workspace_diagnostics: false,
            ..DiagnosticOptions::default()
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "irilint", "version": env!("CARGO_PKG_VERSION") },
    });
    connection
        .initialize_finish(id, result)
        .map_err(|e| format!("LSP handshake failed: {e}"))?;
    let mut server = Server::new(connection.sender.clone(), encoding, &params);
    server.register_watchers();
    loop {
        let wait = server.next_due().map_or(Duration::from_secs(3600), |due| {
            due.saturating_duration_since(Instant::now())
        });
        let flow = select! {
            recv(connection.receiver) -> message => match message {
                Ok(message) => server.handle(message),
                // The client went away without `exit`.
                Err(_) => Flow::Exit { orderly: false },
            },
            recv(server.results()) -> result => {
                if let Ok(result) = result {
                    server.finished(result);
                }
                Flow::Continue
            },
            default(wait) => Flow::Continue,
        };
        if let Flow::Exit { orderly } = flow {
            return Ok(orderly);
        }
        server.start_due();
    }
}

/// Whether `message` is the `exit` notification.
fn is_exit(message: &Message) -> bool {
    matches!(message, Message::Notification(n) if n.method == "exit")
}
