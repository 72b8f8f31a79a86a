//! A small LSP client over a child process's stdio, for the language server's tests and
//! benchmark: framing, requests with their responses, notifications kept aside until asked for.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const WAIT: Duration = Duration::from_secs(60);

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for something else.
    pub backlog: Vec<Value>,
}

impl Client {
    /// Starts the server and initializes it with `capabilities`; returns the client and the
    /// server's `initialize` result.
    pub fn start(capabilities: Value, cwd: &std::path::Path) -> (Client, Value) {
        Client::start_with(env!("CARGO_BIN_EXE_irilint"), capabilities, cwd)
    }

    /// [`Client::start`] with the server binary at `program`.
    pub fn start_with(
        program: &str,
        capabilities: Value,
        cwd: &std::path::Path,
    ) -> (Client, Value) {
        let mut client = Client::spawn_with(program, cwd);
        let result = client.initialize(capabilities);
        (client, result.expect("initialize succeeds"))
    }

    /// The server started and not yet initialized: a test sends what it likes first.
    pub fn spawn(cwd: &std::path::Path) -> Client {
        Client::spawn_with(env!("CARGO_BIN_EXE_irilint"), cwd)
    }

    fn spawn_with(program: &str, cwd: &std::path::Path) -> Client {
        let mut child = Command::new(program)
            .arg("lsp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            incoming: rx,
            next_id: 0,
            backlog: Vec::new(),
        }
    }

    /// `initialize` with `capabilities`, then `initialized`; the `initialize` response.
    pub fn initialize(&mut self, capabilities: Value) -> Result<Value, Value> {
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities}),
        );
        self.notify("initialized", json!({}));
        result
    }

    /// Writes `bytes` to the server as they are: headers, bodies, garbage.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// The next error response whose `id` is `id` (`null` for a message whose id could not be
    /// read), from the backlog first; the whole response.
    pub fn error_for(&mut self, id: Value) -> Value {
        let is_it = |m: &Value| m.get("error").is_some() && m["id"] == id;
        if let Some(k) = self.backlog.iter().position(is_it) {
            return self.backlog.remove(k);
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self
                .recv(deadline)
                .unwrap_or_else(|| panic!("no error response with id {id}"));
            if is_it(&m) {
                return m;
            }
            self.backlog.push(m);
        }
    }

    /// The server's peak resident memory so far (Linux `VmHWM`), in KiB.
    pub fn peak_rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn send(&mut self, message: Value) {
        let body = serde_json::to_vec(&message).unwrap();
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(&body).unwrap();
        stdin.flush().unwrap();
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    pub fn recv(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(v) => Some(v),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Sends a request and waits for its response: `Ok(result)` or `Err(error)`.
    pub fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self
                .recv(deadline)
                .unwrap_or_else(|| panic!("no response to {method}"));
            if m["id"] == id && m.get("method").is_none() {
                return match m.get("error") {
                    Some(e) => Err(e.clone()),
                    None => Ok(m["result"].clone()),
                };
            }
            if m.get("method").is_some() && m.get("id").is_some() {
                // A request from the server (capability registration): accept it.
                let reply = json!({"jsonrpc": "2.0", "id": m["id"], "result": null});
                self.send(reply);
                continue;
            }
            self.backlog.push(m);
        }
    }

    /// The next `publishDiagnostics` for `uri` (from the backlog first).
    pub fn published(&mut self, uri: &str) -> Value {
        let is_it = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(k) = self.backlog.iter().position(is_it) {
            return self.backlog.remove(k)["params"].clone();
        }
        let deadline = Instant::now() + WAIT;
        loop {
            let m = self
                .recv(deadline)
                .unwrap_or_else(|| panic!("no diagnostics published for {uri}"));
            if is_it(&m) {
                return m["params"].clone();
            }
            if m.get("method").is_some() && m.get("id").is_some() {
                let reply = json!({"jsonrpc": "2.0", "id": m["id"], "result": null});
                self.send(reply);
                continue;
            }
            self.backlog.push(m);
        }
    }

    /// Publications for `uri` until one has `version`; all of them, in order.
    pub fn published_until(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let mut all = Vec::new();
        loop {
            let p = self.published(uri);
            let done = p["version"] == version;
            all.push(p);
            if done {
                return all;
            }
        }
    }

    pub fn open(&mut self, uri: &str, language_id: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language_id, "version": 1, "text": text}}),
        );
    }

    pub fn change(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// `shutdown` then `exit`; the exit code.
    pub fn shutdown(mut self) -> i32 {
        assert_eq!(self.request("shutdown", Value::Null), Ok(Value::Null));
        self.notify("exit", Value::Null);
        self.wait()
    }

    pub fn wait(mut self) -> i32 {
        drop(self.stdin.take());
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
