//! The server's state and what it does with each message.

use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use crossbeam_channel::{Receiver, Sender, unbounded};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
    DidSaveTextDocument, Notification as _, PublishDiagnostics, ShowMessage,
};
use lsp_types::request::{
    CodeActionRequest, DocumentDiagnosticRequest, HoverRequest, RegisterCapability, Request as _,
};
use lsp_types::{
    CodeActionOrCommand, CodeActionParams, DidChangeTextDocumentParams,
    DidChangeWatchedFilesParams, DidChangeWatchedFilesRegistrationOptions,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    DocumentDiagnosticParams, DocumentDiagnosticReport, DocumentDiagnosticReportResult,
    FileSystemWatcher, FullDocumentDiagnosticReport, GlobPattern, Hover, HoverContents,
    HoverParams, InitializeParams, MarkupContent, MarkupKind, MessageType,
    PublishDiagnosticsParams, Registration, RegistrationParams,
    RelatedFullDocumentDiagnosticReport, ShowMessageParams, Uri,
};

use super::actions::{self, overlaps, suppress_file, suppress_line};
use super::diagnostics::{Checked, check, to_lsp};
use super::document::{Document, uri_to_path};
use super::oversized::{OVERSIZED, Oversized};
use super::positions::{Encoding, Lines};
use super::transport::MAX_MESSAGE;
use super::{DEBOUNCE, is_exit};
use crate::config::{CliSettings, Discovery, FILE_NAMES, Resolver};
use crate::extract;
use crate::inspect::Inspection;

/// What the loop does next.
pub enum Flow {
    /// Go on.
    Continue,
    /// Stop; `orderly` when `shutdown` came before `exit`.
    Exit {
        /// Whether `shutdown` came first.
        orderly: bool,
    },
}

/// A finished check, sent back by a worker.
pub struct Finished {
    uri: Uri,
    result: Result<(Checked, Option<String>), String>,
}

/// Everything the server knows.
pub struct Server {
    sender: Sender<Message>,
    encoding: Encoding,
    /// Whether the client pulls diagnostics (then they are not also pushed).
    pulls: bool,
    /// Whether the client can be asked to watch configuration files.
    can_watch: bool,
    resolver: Arc<Resolver>,
    documents: HashMap<Uri, Document>,
    /// The latest findings of each open document (possibly for an older version).
    checked: HashMap<Uri, Checked>,
    /// Documents to check, and when.
    due: HashMap<Uri, Instant>,
    /// Documents being checked on a worker.
    running: HashSet<Uri>,
    results_tx: Sender<Finished>,
    results_rx: Receiver<Finished>,
    shutdown: bool,
    /// The last configuration error shown, so that it is shown once.
    shown_error: Option<String>,
    /// Open documents whose text was said to contradict their charset declaration (said once).
    shown_misread: HashSet<Uri>,
    /// The configuration files seen next to and above the documents opened or saved, as they
    /// were then (length and modification time; `None`: absent): for editors that do not
    /// watch files, a saved `irilint.toml` is noticed at the next open or save of any document.
    config_files: HashMap<PathBuf, Option<(u64, SystemTime)>>,
    /// Documents last sent in a message over the limit, with its length: not checked, and
    /// said so, until a whole new text arrives.
    oversized: HashMap<Uri, u64>,
    next_request: i32,
}

fn resolver() -> Arc<Resolver> {
    let resolver = Resolver::new(Discovery::Nearest, CliSettings::default())
        .or_else(|_| Resolver::new(Discovery::Isolated, CliSettings::default()))
        .expect("a resolver without configuration files cannot fail");
    Arc::new(resolver)
}

impl Server {
    /// A server speaking `encoding` to a client with `params`' capabilities.
    pub fn new(sender: Sender<Message>, encoding: Encoding, params: &InitializeParams) -> Server {
        let (results_tx, results_rx) = unbounded();
        let caps = &params.capabilities;
        Server {
            sender,
            encoding,
            pulls: caps
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            can_watch: caps
                .workspace
                .as_ref()
                .and_then(|w| w.did_change_watched_files)
                .and_then(|w| w.dynamic_registration)
                .unwrap_or(false),
            resolver: resolver(),
            documents: HashMap::new(),
            checked: HashMap::new(),
            due: HashMap::new(),
            running: HashSet::new(),
            results_tx,
            results_rx,
            shutdown: false,
            shown_error: None,
            shown_misread: HashSet::new(),
            config_files: HashMap::new(),
            oversized: HashMap::new(),
            next_request: 0,
        }
    }

    /// Where workers send finished checks.
    pub fn results(&self) -> &Receiver<Finished> {
        &self.results_rx
    }

    /// When the next pending check is due.
    pub fn next_due(&self) -> Option<Instant> {
        self.due
            .iter()
            .filter(|(uri, _)| !self.running.contains(*uri))
            .map(|(_, at)| *at)
            .min()
    }

    fn send(&self, message: impl Into<Message>) {
        // A client that went away is noticed by the loop's receiver.
        let _ = self.sender.send(message.into());
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_string(), params));
    }

    /// Asks the client to tell the server when a configuration file changes on disk.
    pub fn register_watchers(&mut self) {
        if !self.can_watch {
            return;
        }
        let watchers = FILE_NAMES
            .iter()
            .map(|name| FileSystemWatcher {
                glob_pattern: GlobPattern::String(format!("**/{name}")),
                kind: None,
            })
            .collect();
        let options = DidChangeWatchedFilesRegistrationOptions { watchers };
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: "irilint-configuration".into(),
                method: DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(options).ok(),
            }],
        };
        self.next_request += 1;
        let id = RequestId::from(format!("irilint-{}", self.next_request));
        self.send(Request::new(id, RegisterCapability::METHOD.into(), params));
    }

    /// Handles one message from the client.
    pub fn handle(&mut self, message: Message) -> Flow {
        if is_exit(&message) {
            return Flow::Exit {
                orderly: self.shutdown,
            };
        }
        match message {
            Message::Request(req) => self.request(req),
            Message::Notification(n) => self.notification(n),
            // Answers to the server's own requests (the watcher registration): nothing to do.
            Message::Response(_) => {}
        }
        Flow::Continue
    }

    fn request(&mut self, req: Request) {
        if self.shutdown {
            self.send(Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".into(),
            ));
            return;
        }
        let id = req.id.clone();
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(req)));
        let response = match outcome {
            Ok(Ok(r)) => r,
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                "irilint failed on this request (a bug: please report it)".into(),
            ),
        };
        self.send(response);
    }

    fn dispatch(&mut self, req: Request) -> Result<Response, (ErrorCode, String)> {
        let id = req.id.clone();
        let params = |e: serde_json::Error| (ErrorCode::InvalidParams, e.to_string());
        let ok = |v: serde_json::Value| Ok(Response::new_ok(id.clone(), v));
        match req.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                ok(serde_json::Value::Null)
            }
            DocumentDiagnosticRequest::METHOD => {
                let p: DocumentDiagnosticParams =
                    serde_json::from_value(req.params).map_err(params)?;
                ok(to_value(&self.pull(&p.text_document.uri)))
            }
            CodeActionRequest::METHOD => {
                let p: CodeActionParams = serde_json::from_value(req.params).map_err(params)?;
                ok(to_value(&self.code_actions(&p)))
            }
            HoverRequest::METHOD => {
                let p: HoverParams = serde_json::from_value(req.params).map_err(params)?;
                ok(to_value(&self.hover(&p)))
            }
            other => Err((
                ErrorCode::MethodNotFound,
                format!("irilint does not handle `{other}`"),
            )),
        }
    }

    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let done = catch_unwind(AssertUnwindSafe(|| self.notified(n)));
        if done.is_err() {
            self.notify::<ShowMessage>(ShowMessageParams {
                typ: MessageType::ERROR,
                message: format!("irilint failed on `{method}` (a bug: please report it)"),
            });
        }
    }

    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let doc = p.text_document;
                let document = Document {
                    path: uri_to_path(&doc.uri),
                    uri: doc.uri.clone(),
                    language_id: doc.language_id,
                    version: doc.version,
                    text: doc.text,
                };
                let path = document.path.clone();
                self.oversized.remove(&doc.uri);
                self.documents.insert(doc.uri.clone(), document);
                self.due.insert(doc.uri, Instant::now());
                if let Some(path) = path {
                    self.recheck_if_configuration_changed(&path);
                }
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let encoding = self.encoding;
                let Some(doc) = self.documents.get_mut(&p.text_document.uri) else {
                    return;
                };
                let mut changes = p.content_changes;
                if self.oversized.contains_key(&p.text_document.uri) {
                    // The text is unknown since: only a whole new one can be checked.
                    let Some(whole) = changes.iter().rposition(|c| c.range.is_none()) else {
                        return;
                    };
                    changes.drain(..whole);
                    self.oversized.remove(&p.text_document.uri);
                }
                for change in changes {
                    match change.range {
                        // Full sync, as announced.
                        None => doc.text = change.text,
                        // A client that sends ranges anyway.
                        Some(range) => {
                            let index = crate::line_index::LineIndex::new(&doc.text);
                            let lines = Lines {
                                text: &doc.text,
                                index: &index,
                                encoding,
                            };
                            let (start, end) = (lines.offset(range.start), lines.offset(range.end));
                            let (start, end) = (start.min(end), start.max(end));
                            doc.text.replace_range(start..end, &change.text);
                        }
                    }
                }
                doc.version = p.text_document.version;
                self.due
                    .insert(p.text_document.uri, Instant::now() + DEBOUNCE);
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                self.oversized.remove(&uri);
                self.documents.remove(&uri);
                self.checked.remove(&uri);
                self.shown_misread.remove(&uri);
                self.due.remove(&uri);
                if !self.pulls {
                    self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
                        uri,
                        Vec::new(),
                        None,
                    ));
                }
            }
            OVERSIZED => {
                let Ok(o) = serde_json::from_value::<Oversized>(n.params) else {
                    return;
                };
                let Ok(uri) = o.uri.parse::<Uri>() else {
                    return;
                };
                match self.documents.get_mut(&uri) {
                    Some(doc) => doc.text = String::new(),
                    // Opened: kept without its text, for the changes that follow.
                    None => {
                        let document = Document {
                            path: uri_to_path(&uri),
                            uri: uri.clone(),
                            language_id: o.language_id.unwrap_or_default(),
                            version: 0,
                            text: String::new(),
                        };
                        self.documents.insert(uri.clone(), document);
                    }
                }
                self.checked.remove(&uri);
                self.due.remove(&uri);
                self.oversized.insert(uri.clone(), o.length);
                if !self.pulls {
                    self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
                        uri,
                        vec![not_checked(o.length)],
                        None,
                    ));
                }
            }
            DidSaveTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(n.params) else {
                    return;
                };
                if is_configuration(&p.text_document.uri) {
                    self.configuration_changed();
                } else if let Some(path) = uri_to_path(&p.text_document.uri) {
                    self.recheck_if_configuration_changed(&path);
                }
            }
            DidChangeWatchedFiles::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(n.params) else {
                    return;
                };
                if p.changes.iter().any(|c| is_configuration(&c.uri)) {
                    self.configuration_changed();
                }
            }
            _ => {}
        }
    }

    /// Reads the configuration again (and checks every open document) when a configuration
    /// file in `document`'s directory or above is not as it was when last seen: what an editor
    /// that does not watch files (Neovim on Linux) needs to pick up a saved `irilint.toml`.
    fn recheck_if_configuration_changed(&mut self, document: &Path) {
        let mut changed = false;
        for dir in document.ancestors().skip(1) {
            for name in FILE_NAMES {
                let file = dir.join(name);
                let now = std::fs::metadata(&file)
                    .ok()
                    .map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)));
                match self.config_files.insert(file, now) {
                    // First seen: the resolver reads it as it is now.
                    None => {}
                    Some(before) => changed |= before != now,
                }
            }
        }
        if changed {
            self.configuration_changed();
        }
    }

    /// A configuration file changed: read them again and check every open document.
    fn configuration_changed(&mut self) {
        self.resolver = resolver();
        self.shown_error = None;
        // Pulled diagnostics are computed again too.
        self.checked.clear();
        let now = Instant::now();
        for uri in self.documents.keys() {
            self.due.insert(uri.clone(), now);
        }
    }

    /// Starts the checks that are due on workers (one at a time per document).
    pub fn start_due(&mut self) {
        let now = Instant::now();
        let ready: Vec<Uri> = self
            .due
            .iter()
            .filter(|(uri, at)| **at <= now && !self.running.contains(*uri))
            .map(|(uri, _)| uri.clone())
            .collect();
        for uri in ready {
            self.due.remove(&uri);
            let Some(doc) = self.documents.get(&uri).cloned() else {
                continue;
            };
            self.running.insert(uri.clone());
            let resolver = Arc::clone(&self.resolver);
            let tx = self.results_tx.clone();
            std::thread::spawn(move || {
                let result =
                    catch_unwind(AssertUnwindSafe(|| check(&doc, &resolver))).map_err(|_| {
                        "irilint failed on this document (a bug: please report it)".into()
                    });
                let _ = tx.send(Finished { uri, result });
            });
        }
    }

    /// A worker finished: keep and publish its findings if they are for the current version.
    pub fn finished(&mut self, done: Finished) {
        self.running.remove(&done.uri);
        let current = self.documents.get(&done.uri).map(|d| d.version);
        match done.result {
            Ok((checked, error)) => {
                self.show_configuration_error(error);
                self.show_misread(&done.uri, &checked);
                if current != Some(checked.version) {
                    // Stale: the newer version is due (or already checked) and wins.
                    return;
                }
                self.publish(&done.uri, &checked);
                self.checked.insert(done.uri, checked);
            }
            Err(message) => self.notify::<ShowMessage>(ShowMessageParams {
                typ: MessageType::ERROR,
                message,
            }),
        }
    }

    /// Says once per open document that its text contradicts its charset declaration (and
    /// again if it comes back after being resolved).
    fn show_misread(&mut self, uri: &Uri, checked: &Checked) {
        match (&checked.misread, &checked.skipped) {
            (Some(_), Some(message)) => {
                if self.shown_misread.insert(uri.clone()) {
                    self.notify::<ShowMessage>(ShowMessageParams {
                        typ: MessageType::WARNING,
                        message: message.clone(),
                    });
                }
            }
            _ => {
                self.shown_misread.remove(uri);
            }
        }
    }

    fn show_configuration_error(&mut self, error: Option<String>) {
        if let Some(message) = error
            && self.shown_error.as_ref() != Some(&message)
        {
            self.notify::<ShowMessage>(ShowMessageParams {
                typ: MessageType::ERROR,
                message: format!(
                    "irilint: invalid configuration (the defaults apply until it is fixed): {message}"
                ),
            });
            self.shown_error = Some(message);
        }
    }

    fn lsp_diagnostics(&self, uri: &Uri, checked: &Checked) -> Vec<lsp_types::Diagnostic> {
        // A document that was not checked has no findings.
        let Some(source) = &checked.source else {
            return Vec::new();
        };
        let lines = Lines {
            text: &source.text,
            index: source.lines(),
            encoding: self.encoding,
        };
        checked
            .diagnostics
            .iter()
            .map(|d| to_lsp(d, &lines, uri))
            .collect()
    }

    fn publish(&self, uri: &Uri, checked: &Checked) {
        if self.pulls {
            return;
        }
        let diagnostics = self.lsp_diagnostics(uri, checked);
        self.notify::<PublishDiagnostics>(PublishDiagnosticsParams::new(
            uri.clone(),
            diagnostics,
            Some(checked.version),
        ));
    }

    /// The findings for the document's current version, checked now if need be.
    fn current(&mut self, uri: &Uri) -> Option<&Checked> {
        let doc = self.documents.get(uri)?;
        let fresh = self
            .checked
            .get(uri)
            .is_some_and(|c| c.version == doc.version);
        if !fresh {
            let (checked, error) = check(doc, &self.resolver);
            self.show_configuration_error(error);
            self.show_misread(uri, &checked);
            self.checked.insert(uri.clone(), checked);
        }
        self.checked.get(uri)
    }

    fn pull(&mut self, uri: &Uri) -> DocumentDiagnosticReportResult {
        let (items, version) = if let Some(&length) = self.oversized.get(uri) {
            (vec![not_checked(length)], None)
        } else if self.current(uri).is_some() {
            let checked = &self.checked[uri];
            (self.lsp_diagnostics(uri, checked), Some(checked.version))
        } else {
            (Vec::new(), None)
        };
        DocumentDiagnosticReportResult::Report(DocumentDiagnosticReport::Full(
            RelatedFullDocumentDiagnosticReport {
                related_documents: None,
                full_document_diagnostic_report: FullDocumentDiagnosticReport {
                    result_id: version.map(|v| v.to_string()),
                    items,
                },
            },
        ))
    }

    fn code_actions(&mut self, p: &CodeActionParams) -> Vec<CodeActionOrCommand> {
        let uri = &p.text_document.uri;
        let encoding = self.encoding;
        if self.current(uri).is_none() {
            return Vec::new();
        }
        let checked = &self.checked[uri];
        let Some(source) = &checked.source else {
            return Vec::new();
        };
        let lines = Lines {
            text: &source.text,
            index: source.lines(),
            encoding,
        };
        let wanted = lines.offset(p.range.start)..lines.offset(p.range.end);
        let path = source.path.clone();
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        for d in checked.diagnostics.iter().filter(|d| overlaps(d, &wanted)) {
            let lsp = to_lsp(d, &lines, uri);
            // The fix first: a safe one is the preferred action (one keystroke in editors).
            if let Some(fix) = &d.fix {
                let edits: Vec<actions::Insertion> = fix
                    .edits
                    .iter()
                    .map(|e| actions::Insertion {
                        range: e.range(),
                        text: e.replacement.clone(),
                    })
                    .collect();
                let safe = fix.applicability == crate::iri_fix::Applicability::Safe;
                let message = crate::iri::chars::escape_unsafe(&fix.message);
                let mut title: String = message
                    .chars()
                    .take(1)
                    .flat_map(char::to_uppercase)
                    .collect();
                title.push_str(&message[message.chars().next().map_or(0, char::len_utf8)..]);
                out.push(actions::action(
                    format!(
                        "{title} ({})",
                        if safe {
                            "safe fix"
                        } else {
                            "unsafe fix: may change the link"
                        }
                    ),
                    uri,
                    &lines,
                    &edits,
                    Some(lsp.clone()),
                    safe,
                ));
            }
            let line = source.lines().line_of(&source.text, d.start.text_offset);
            if seen.insert((d.rule, line))
                && let Some(edit) = suppress_line(
                    &source.text,
                    source.lines(),
                    source.format,
                    &path,
                    line,
                    d.rule,
                )
            {
                out.push(actions::action(
                    format!("Suppress `{}` on this line", d.rule),
                    uri,
                    &lines,
                    &[edit],
                    Some(lsp.clone()),
                    false,
                ));
            }
            if seen.insert((d.rule, usize::MAX)) {
                let edit = suppress_file(&source.text, source.format, &path, d.rule);
                out.push(actions::action(
                    format!("Suppress `{}` in this file", d.rule),
                    uri,
                    &lines,
                    &[edit],
                    Some(lsp),
                    false,
                ));
            }
        }
        out.into_iter()
            .map(CodeActionOrCommand::CodeAction)
            .collect()
    }

    fn hover(&mut self, p: &HoverParams) -> Option<Hover> {
        let uri = &p.text_document_position_params.text_document.uri;
        let encoding = self.encoding;
        self.current(uri)?;
        let checked = &self.checked[uri];
        let source = checked.source.as_ref()?;
        let lines = Lines {
            text: &source.text,
            index: source.lines(),
            encoding,
        };
        let at = lines.offset(p.text_document_position_params.position);
        let extraction = extract::extract(source);
        let occurrence = extraction.occurrences.iter().find(|o| {
            let r = o.map.source_range();
            r.start <= at && at < r.end.max(r.start + 1)
        })?;
        let range = occurrence.map.source_range();
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: Inspection::new(&occurrence.iri).to_markdown(),
            }),
            range: Some(lines.range(range.start, range.end)),
        })
    }
}

/// The diagnostic of a document sent in a message of `length` bytes, over the limit.
fn not_checked(length: u64) -> lsp_types::Diagnostic {
    lsp_types::Diagnostic {
        range: lsp_types::Range::default(),
        severity: Some(lsp_types::DiagnosticSeverity::WARNING),
        source: Some("irilint".into()),
        message: format!(
            "irilint did not check this file: the editor sent it in a message of {length} bytes, \
             over the language server's limit of {} MiB; check it with `irilint check` on the \
             command line",
            MAX_MESSAGE >> 20
        ),
        ..Default::default()
    }
}

fn to_value<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).unwrap_or(serde_json::Value::Null)
}

/// Whether `uri` names a configuration file.
fn is_configuration(uri: &Uri) -> bool {
    let s = uri.as_str();
    let name = s.rsplit('/').next().unwrap_or(s);
    FILE_NAMES.contains(&name)
}
