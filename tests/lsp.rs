//! `irilint lsp`, driven over stdio by a small LSP client, as an editor drives it: the
//! handshake with each position encoding, open/change/close, pushed and pulled diagnostics,
//! code actions applied to the text, hover, configuration changes, hostile requests, malformed
//! and oversized messages, shutdown.

mod lsp_client;

use serde_json::{Value, json};

use lsp_client::Client;

const RLO: char = '\u{202E}';
fn encodings(offered: &[&str]) -> Value {
    json!({"general": {"positionEncodings": offered}})
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Applies LSP text edits (positions in `encoding`) to `text`.
fn apply_edits(text: &str, edits: &[Value], encoding: &str) -> String {
    let offset = |p: &Value| -> usize {
        let (line, ch) = (
            p["line"].as_u64().unwrap() as usize,
            p["character"].as_u64().unwrap() as usize,
        );
        let mut at = 0;
        for _ in 0..line {
            at += text[at..].find('\n').unwrap() + 1;
        }
        let mut units = 0;
        for (k, c) in text[at..].char_indices() {
            if units >= ch || c == '\n' || c == '\r' {
                return at + k;
            }
            units += match encoding {
                "utf-8" => c.len_utf8(),
                "utf-16" => c.len_utf16(),
                _ => 1,
            };
        }
        text.len()
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, &t);
    }
    out
}

#[test]
fn positions_follow_the_negotiated_encoding_with_astral_characters_and_crlf() {
    let dir = tempfile::tempdir().unwrap();
    // Line 2 (0-based 1) holds an astral character (U+1D4B3, 4 bytes, 2 UTF-16 units) before a
    // link with a U+202E; lines end in CRLF.
    let text =
        format!("<p>x</p>\r\n<p>\u{1D4B3} <a href=\"http://a.example/{RLO}b\">y</a></p>\r\n");
    let prefix = "<p>\u{1D4B3} <a href=\"http://a.example/";
    for (offered, expected, start) in [
        (vec![], "utf-16", prefix.encode_utf16().count()),
        (vec!["utf-16"], "utf-16", prefix.encode_utf16().count()),
        (vec!["utf-8", "utf-16"], "utf-8", prefix.len()),
        (vec!["utf-32", "utf-16"], "utf-32", prefix.chars().count()),
    ] {
        let (mut c, init) = Client::start(encodings(&offered), dir.path());
        assert_eq!(init["capabilities"]["positionEncoding"], expected);
        assert_eq!(init["serverInfo"]["name"], "irilint");
        c.open("file:///tmp/irilint-lsp/a.html", "html", &text);
        let p = c.published("file:///tmp/irilint-lsp/a.html");
        assert_eq!(p["version"], 1);
        assert_eq!(codes(&p), ["bidi-formatting-character"]);
        let range = &p["diagnostics"][0]["range"];
        assert_eq!(
            range["start"],
            json!({"line": 1, "character": start}),
            "{expected}"
        );
        let width = if expected == "utf-8" { 3 } else { 1 };
        assert_eq!(
            range["end"],
            json!({"line": 1, "character": start + width}),
            "{expected}"
        );
        // Never a raw hidden character in what the server says.
        let message = p["diagnostics"][0]["message"].as_str().unwrap();
        assert!(
            !message.contains(RLO) && message.contains("U+202E"),
            "{message}"
        );
        assert_eq!(c.shutdown(), 0);
    }
}

#[test]
fn changes_republish_and_the_latest_version_wins() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    let uri = "file:///tmp/irilint-lsp/b.md";
    c.open(uri, "markdown", "See <https://example.org/ok>.\n");
    let p = c.published(uri);
    assert_eq!((p["version"].clone(), codes(&p).len()), (json!(1), 0));
    c.change(uri, 2, &format!("See <https://example.org/{RLO}x>.\n"));
    let p = c.published(uri);
    assert_eq!(p["version"], 2);
    assert_eq!(codes(&p), ["bidi-formatting-character"]);
    // 100 quick edits: whatever is published on the way, versions only go up and the last
    // publication is for the last text (clean).
    for v in 3..=102 {
        let text = if v == 102 {
            "See <https://example.org/fine>.\n".to_string()
        } else {
            format!(
                "See <https://example.org/{}{RLO}>.\n",
                "a".repeat(v as usize)
            )
        };
        c.change(uri, v, &text);
    }
    let all = c.published_until(uri, 102);
    let versions: Vec<i64> = all.iter().map(|p| p["version"].as_i64().unwrap()).collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    assert!(
        versions.len() < 50,
        "debounced: {} publications",
        versions.len()
    );
    assert_eq!(codes(all.last().unwrap()).len(), 0);
    // Closing clears the document's diagnostics.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let p = c.published(uri);
    assert_eq!(codes(&p).len(), 0);
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn a_client_that_pulls_gets_diagnostics_by_pull_only() {
    let dir = tempfile::tempdir().unwrap();
    let caps = json!({"textDocument": {"diagnostic": {"dynamicRegistration": false}}});
    let (mut c, init) = Client::start(caps, dir.path());
    assert_eq!(
        init["capabilities"]["diagnosticProvider"]["identifier"],
        "irilint"
    );
    let uri = "file:///tmp/irilint-lsp/c.txt";
    c.open(uri, "plaintext", &format!("http://a.example/{RLO}x\n"));
    let r = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .unwrap();
    assert_eq!(r["kind"], "full");
    assert_eq!(r["items"][0]["code"], "bidi-formatting-character");
    assert_eq!(r["items"][0]["severity"], 1);
    c.change(uri, 2, "http://a.example/x\n");
    let r = c
        .request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .unwrap();
    assert_eq!(r["items"], json!([]));
    assert_eq!(r["resultId"], "2");
    // Nothing was pushed.
    assert!(
        c.backlog
            .iter()
            .all(|m| m["method"] != "textDocument/publishDiagnostics"),
        "{:?}",
        c.backlog
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn code_actions_suppress_on_the_line_or_in_the_file_in_the_documents_syntax() {
    let dir = tempfile::tempdir().unwrap();
    for (uri, language_id, text, line_directive) in [
        (
            "file:///tmp/irilint-lsp/d.html",
            "html",
            format!("<p>\r\n  <a href=\"http://a.example/\u{20BB7}{RLO}x\">y</a>\r\n</p>\r\n"),
            "  <!-- irilint-disable-next-line bidi-formatting-character -->\r\n",
        ),
        (
            "file:///tmp/irilint-lsp/d.rst",
            "plaintext",
            format!("Intro\n\nhttp://a.example/{RLO}x\n"),
            ".. irilint-disable-next-line bidi-formatting-character\n",
        ),
        (
            // A reStructuredText comment ends at a blank line, which docutils wants after it.
            "file:///tmp/irilint-lsp/e.rst",
            "restructuredtext",
            format!("Intro.\n\n  See `x <http://a.example/{RLO}x>`_ here.\n"),
            "\n\n  .. irilint-disable-next-line bidi-formatting-character\n\n  See",
        ),
    ] {
        for which in ["line", "file"] {
            let (mut c, _) = Client::start(encodings(&["utf-16"]), dir.path());
            c.open(uri, language_id, &text);
            let p = c.published(uri);
            let d = p["diagnostics"][0].clone();
            assert_eq!(d["code"], "bidi-formatting-character");
            let actions = c
                .request(
                    "textDocument/codeAction",
                    json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
                )
                .unwrap();
            let titles: Vec<&str> = actions
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a["title"].as_str().unwrap())
                .collect();
            assert_eq!(
                titles,
                [
                    "Remove U+202E RIGHT-TO-LEFT OVERRIDE (unsafe fix: may change the link)",
                    "Suppress `bidi-formatting-character` on this line",
                    "Suppress `bidi-formatting-character` in this file"
                ]
            );
            let action = &actions[if which == "line" { 1 } else { 2 }];
            assert_eq!(action["kind"], "quickfix");
            let edits = action["edit"]["changes"][uri].as_array().unwrap();
            let fixed = apply_edits(&text, edits, "utf-16");
            if which == "line" {
                assert!(fixed.contains(line_directive), "{fixed:?}");
            } else {
                assert!(fixed.contains("irilint-disable-file bidi-formatting-character"));
            }
            c.change(uri, 2, &fixed);
            let p = c.published(uri);
            assert_eq!(p["version"], 2);
            assert_eq!(codes(&p), Vec::<String>::new(), "{which}: {fixed:?}");
            assert_eq!(c.shutdown(), 0);
        }
    }
}

#[test]
fn fixes_are_quick_fixes_and_only_safe_ones_are_preferred() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(encodings(&["utf-16"]), dir.path());
    let uri = "file:///tmp/irilint-lsp/fix.html";
    // A space (safe: percent-encoded, same resource) and a hidden U+202E (unsafe) behind an
    // astral character, in an attribute with an entity.
    let text = format!("<p>\u{20BB7}<a href=\"http://a.example/x y?a=1&amp;b={RLO}2\">z</a></p>\n");
    c.open(uri, "html", &text);
    let mut p = c.published(uri);
    let mut rules = codes(&p);
    rules.sort();
    assert_eq!(rules, ["bidi-formatting-character", "syntax-unwise-ascii"]);
    let mut fixed = text.clone();
    let mut version = 1;
    // As an editor does: apply one quick fix, send the new text, get fresh diagnostics.
    for rule in ["syntax-unwise-ascii", "bidi-formatting-character"] {
        let d = p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == rule)
            .unwrap()
            .clone();
        let actions = c
            .request(
                "textDocument/codeAction",
                json!({"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": [d]}}),
            )
            .unwrap();
        let fix = &actions[0];
        let safe = rule == "syntax-unwise-ascii";
        assert_eq!(fix["kind"], "quickfix");
        assert_eq!(
            fix["isPreferred"],
            if safe { json!(true) } else { Value::Null }
        );
        let title = fix["title"].as_str().unwrap();
        assert!(
            title.ends_with(if safe {
                "(safe fix)"
            } else {
                "(unsafe fix: may change the link)"
            }),
            "{title}"
        );
        assert!(!title.contains(RLO));
        fixed = apply_edits(
            &fixed,
            fix["edit"]["changes"][uri].as_array().unwrap(),
            "utf-16",
        );
        version += 1;
        c.change(uri, version, &fixed);
        p = c.published(uri);
        assert_eq!(p["version"], version);
    }
    assert_eq!(
        fixed,
        "<p>\u{20BB7}<a href=\"http://a.example/x%20y?a=1&amp;b=2\">z</a></p>\n"
    );
    assert_eq!(codes(&p), Vec::<String>::new());
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn hover_inspects_the_iri_under_the_cursor_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(encodings(&["utf-8"]), dir.path());
    let uri = "file:///tmp/irilint-lsp/e.html";
    let text = format!("<a href=\"https://\u{440}aypal.example/{RLO}x\">y</a>\n");
    c.open(uri, "html", &text);
    c.published(uri);
    let h = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 12}}),
        )
        .unwrap();
    let value = h["contents"]["value"].as_str().unwrap();
    assert_eq!(h["contents"]["kind"], "markdown");
    assert!(!value.contains(RLO), "{value}");
    assert!(
        value.contains("U+202E | RIGHT-TO-LEFT OVERRIDE | Common | RLO"),
        "{value}"
    );
    assert!(
        value.contains("U+0440 | CYRILLIC SMALL LETTER ER | Cyrillic | L"),
        "{value}"
    );
    assert!(value.contains("confusable"), "{value}");
    assert_eq!(h["range"]["start"], json!({"line": 0, "character": 9}));
    // Outside any IRI: no hover.
    let h = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}),
        )
        .unwrap();
    assert_eq!(h, Value::Null);
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn configuration_and_suppressions_apply_and_a_changed_configuration_rechecks() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("f.html");
    let uri = format!("file://{}", page.display());
    let text = format!(
        "<!-- irilint-disable-next-line invisible-character -->\n<a href=\"http://a.example/x\u{200B}y\">z</a>\n<a href=\"http://a.example/{RLO}\">z</a>\n"
    );
    std::fs::write(&page, &text).unwrap();
    let caps = json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}});
    let (mut c, _) = Client::start(caps, dir.path());
    c.open(&uri, "html", &text);
    assert_eq!(codes(&c.published(&uri)), ["bidi-formatting-character"]);
    std::fs::write(dir.path().join("irilint.toml"), "ignore = [\"bidi\"]\n").unwrap();
    let toml_uri = format!("file://{}", dir.path().join("irilint.toml").display());
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": toml_uri, "type": 1}]}),
    );
    assert_eq!(codes(&c.published(&uri)), Vec::<String>::new());
    // A broken configuration: the defaults apply and the client is told.
    std::fs::write(dir.path().join("irilint.toml"), "ignore = 3\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": toml_uri, "type": 2}]}),
    );
    assert_eq!(codes(&c.published(&uri)), ["bidi-formatting-character"]);
    let shown = c
        .backlog
        .iter()
        .find(|m| m["method"] == "window/showMessage")
        .expect("the configuration error is shown");
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .contains("invalid configuration"),
        "{shown}"
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn bad_documents_and_bad_requests_never_kill_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    // Not well-formed XML, an unknown language, binary-looking text, a large document.
    c.open(
        "file:///tmp/irilint-lsp/g.svg",
        "xml",
        "<svg><a href='http://a/\u{202E}'></svg",
    );
    assert!(
        codes(&c.published("file:///tmp/irilint-lsp/g.svg"))
            .contains(&"xml-not-well-formed".to_string())
    );
    c.open(
        "file:///tmp/irilint-lsp/g.rs",
        "rust",
        "// http://a/\u{202E}\n",
    );
    assert_eq!(codes(&c.published("file:///tmp/irilint-lsp/g.rs")).len(), 0);
    c.open(
        "untitled:Untitled-1",
        "html",
        "\0\0<a href='\u{0}http://a/'>\u{FFFF}",
    );
    c.published("untitled:Untitled-1");
    let big: String = (0..20_000)
        .map(|i| format!("<p><a href=\"https://example.org/page/{i}\">link {i}</a></p>\n"))
        .collect::<String>()
        + &format!("<a href=\"https://example.org/{RLO}\">x</a>\n");
    assert!(big.len() > 1_000_000);
    c.open("file:///tmp/irilint-lsp/big.html", "html", &big);
    let p = c.published("file:///tmp/irilint-lsp/big.html");
    assert_eq!(codes(&p), ["bidi-formatting-character"]);
    assert_eq!(p["diagnostics"][0]["range"]["start"]["line"], 20_000);
    // Unknown methods, bad parameters, documents never opened.
    let e = c.request("textDocument/definition", json!({})).unwrap_err();
    assert_eq!(e["code"], -32601);
    let e = c
        .request("textDocument/hover", json!({"nonsense": 1}))
        .unwrap_err();
    assert_eq!(e["code"], -32602);
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///never/opened.html"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r, Ok(Value::Null));
    c.notify("textDocument/didChange", json!({"garbage": true}));
    c.notify("$/cancelRequest", json!({"id": 1}));
    // Still answering.
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": "file:///tmp/irilint-lsp/g.svg"}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 99, "character": 0}}, "context": {"diagnostics": []}}),
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn exit_without_shutdown_and_a_vanishing_client_end_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    c.notify("exit", Value::Null);
    assert_eq!(c.wait(), 1);
    let (c, _) = Client::start(json!({}), dir.path());
    // stdin closed without a word.
    assert_eq!(c.wait(), 1);
    // After shutdown, requests are refused.
    let (mut c, _) = Client::start(json!({}), dir.path());
    assert_eq!(c.request("shutdown", Value::Null), Ok(Value::Null));
    let e = c
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///x.html"}, "position": {"line": 0, "character": 0}}),
        )
        .unwrap_err();
    assert_eq!(e["code"], -32600);
    c.notify("exit", Value::Null);
    assert_eq!(c.wait(), 0);
}

/// `body` framed with its true length.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_code(reply: &Value) -> i64 {
    reply["error"]["code"].as_i64().unwrap()
}

#[test]
fn malformed_messages_are_answered_with_json_rpc_errors_and_the_server_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::spawn(dir.path());
    // Before the handshake, then after it: the same answers, and the server still serves.
    for round in 0..2 {
        // Not JSON: a parse error, id null.
        c.send_raw(&framed(br#"{"jsonrpc": "2.0", "id": 1, "method": "#));
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
        // Not UTF-8: a parse error.
        c.send_raw(&framed(b"{\"jsonrpc\": \"2.0\", \"method\": \"a\xFF\"}"));
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
        // A batch (LSP has none): an invalid request, id null.
        c.send_raw(&framed(
            br#"[{"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {}}]"#,
        ));
        assert_eq!(error_code(&c.error_for(Value::Null)), -32600, "{round}");
        // JSON that is no message: an invalid request, with its id when it can be read.
        c.send_raw(&framed(br#"{"jsonrpc": "2.0", "id": 7}"#));
        assert_eq!(error_code(&c.error_for(json!(7))), -32600, "{round}");
        c.send_raw(&framed(br#"{"jsonrpc": "2.0", "id": "x", "method": 5}"#));
        assert_eq!(error_code(&c.error_for(json!("x"))), -32600, "{round}");
        c.send_raw(&framed(
            br#"{"jsonrpc": "2.0", "id": 1e300, "method": "x"}"#,
        ));
        assert_eq!(error_code(&c.error_for(json!(1e300))), -32600, "{round}");
        c.send_raw(&framed(b"42"));
        assert_eq!(error_code(&c.error_for(Value::Null)), -32600, "{round}");
        // No Content-Length, then one that is no number: the framing is lost, the message it
        // announced is skipped up to the next Content-Length header (its request never runs).
        c.send_raw(
            b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n\
              {\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": \"shutdown\"}",
        );
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
        c.send_raw(
            b"Content-Length: twelve\r\n\r\n{\"jsonrpc\": \"2.0\", \"id\": 98, \"method\": \"shutdown\"}",
        );
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
        // A Content-Length one byte short: the body is cut (a parse error) and its last byte
        // runs into the next header line (a parse error: framing lost), where the header is
        // found again.
        let body = br#"{"jsonrpc": "2.0", "method": "$/nothing"}"#;
        let mut short = format!("Content-Length: {}\r\n\r\n", body.len() - 1).into_bytes();
        short.extend_from_slice(body);
        c.send_raw(&short);
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
        if round == 0 {
            let init = c.initialize(json!({})).expect("initialize is answered");
            assert_eq!(init["serverInfo"]["name"], "irilint");
        } else {
            let r = c.request(
                "textDocument/hover",
                json!({"textDocument": {"uri": "file:///never/opened.html"}, "position": {"line": 0, "character": 0}}),
            );
            assert_eq!(r, Ok(Value::Null));
        }
        // The line where the header was found again, answered once that line came.
        assert_eq!(error_code(&c.error_for(Value::Null)), -32700, "{round}");
    }
    // Nothing else was answered: not the requests inside the unframed messages.
    assert!(
        c.backlog.iter().all(|m| m.get("id").is_none()),
        "{:?}",
        c.backlog
    );
    assert_eq!(c.shutdown(), 0);
}

/// The server's peak memory stays below the largest message it reads (64 MiB), let alone the
/// size a client announces: it needs about 15 MiB here.
const PEAK_KB: u64 = 64 << 10;

#[test]
fn an_oversized_message_is_skipped_without_being_held_and_the_next_one_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = Client::spawn(dir.path());
    // 192 MiB announced: refused at once (before the body is even sent), then read past.
    const SIZE: usize = 192 << 20;
    c.send_raw(format!("Content-Length: {SIZE}\r\n\r\n").as_bytes());
    let reply = c.error_for(Value::Null);
    assert_eq!(error_code(&reply), -32600);
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..SIZE / chunk.len() {
        c.send_raw(&chunk);
    }
    let init = c.initialize(json!({})).expect("initialize is answered");
    assert_eq!(init["serverInfo"]["name"], "irilint");
    if let Some(peak) = c.peak_rss_kb() {
        assert!(peak < PEAK_KB, "peak RSS {peak} KiB");
    }
    assert_eq!(c.shutdown(), 0);
}

/// A `didOpen` (or `didChange`) framed as `Content-Length: N` with a text of `N` bytes in all.
fn oversized_notification(method: &str, uri: &str, version: i64) -> (Vec<u8>, Vec<u8>) {
    let text_len = (64 << 20) + 1000;
    let (head, tail) = if method == "textDocument/didOpen" {
        (
            format!(
                r#"{{"jsonrpc":"2.0","method":"{method}","params":{{"textDocument":{{"uri":"{uri}","languageId":"markdown","version":{version},"text":""#
            ),
            r#""}}}"#.to_string(),
        )
    } else {
        // Keys in another order: the text first, the method last.
        (
            r#"{"jsonrpc":"2.0","params":{"contentChanges":[{"text":""#.to_string(),
            format!(
                r#""}}],"textDocument":{{"version":{version},"uri":"{uri}"}}}},"method":"{method}"}}"#
            ),
        )
    };
    let length = head.len() + text_len + tail.len();
    let mut start = format!("Content-Length: {length}\r\n\r\n").into_bytes();
    start.extend_from_slice(head.as_bytes());
    (start, tail.into_bytes())
}

#[test]
fn a_document_over_the_message_limit_is_said_not_checked_then_checked_when_it_shrinks() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    let uri = "file:///tmp/irilint-lsp/huge.md";
    let send_oversized = |c: &mut Client, method: &str, version: i64| {
        let (start, tail) = oversized_notification(method, uri, version);
        c.send_raw(&start);
        let chunk = format!("http://a.example/{RLO}x ").repeat(1 << 14);
        let mut left = (64 << 20) + 1000;
        while left > 0 {
            let n = left.min(chunk.len());
            c.send_raw(&chunk.as_bytes()[..n]);
            left -= n;
        }
        c.send_raw(&tail);
    };
    send_oversized(&mut c, "textDocument/didOpen", 1);
    let p = c.published(uri);
    let items = p["diagnostics"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{p}");
    let message = items[0]["message"].as_str().unwrap();
    assert!(message.contains("did not check this file"), "{message}");
    assert!(message.contains("64 MiB"), "{message}");
    assert_eq!(items[0]["severity"], 2);
    // A whole new text that fits is checked again.
    c.change(uri, 2, &format!("http://a.example/{RLO}x\n"));
    let p = c.published_until(uri, 2).pop().unwrap();
    assert_eq!(codes(&p), ["bidi-formatting-character"]);
    // An oversized change (its method after its text) is said too, and the old findings go.
    send_oversized(&mut c, "textDocument/didChange", 3);
    let p = c.published(uri);
    let message = p["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("did not check this file"), "{p}");
    assert_eq!(p["diagnostics"].as_array().unwrap().len(), 1);
    if let Some(peak) = c.peak_rss_kb() {
        assert!(peak < PEAK_KB, "peak RSS {peak} KiB");
    }
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn a_terabyte_content_length_is_refused_at_once_without_allocating_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    let started = std::time::Instant::now();
    c.send_raw(b"Content-Length: 1000000000000\r\n\r\n{\"jsonrpc\": \"2.0\"");
    let reply = c.error_for(Value::Null);
    assert_eq!(error_code(&reply), -32600);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    if let Some(peak) = c.peak_rss_kb() {
        assert!(peak < PEAK_KB, "peak RSS {peak} KiB");
    }
    // The rest of the terabyte never comes: the client goes away, as before (exit code 1).
    assert_eq!(c.wait(), 1);
}

#[test]
fn a_saved_configuration_applies_at_the_next_save_or_open_without_a_file_watcher() {
    // An editor that does not watch files (Neovim on Linux): no didChangeWatchedFiles ever
    // comes, and irilint.toml is not a document the server is attached to.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("f.html");
    let uri = format!("file://{}", page.display());
    let text = format!("<a href=\"http://a.example/{RLO}\">z</a>\n");
    std::fs::write(&page, &text).unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    c.open(&uri, "html", &text);
    assert_eq!(codes(&c.published(&uri)), ["bidi-formatting-character"]);
    std::fs::write(dir.path().join("irilint.toml"), "ignore = [\"bidi\"]\n").unwrap();
    // Saving the page (or any document) notices the new file.
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri}}),
    );
    assert_eq!(codes(&c.published(&uri)), Vec::<String>::new());
    // Changed again, then another document opened: every open document is checked again.
    std::fs::write(dir.path().join("irilint.toml"), "ignore = []\n").unwrap();
    let other = dir.path().join("g.md");
    let other_uri = format!("file://{}", other.display());
    std::fs::write(&other, "x\n").unwrap();
    c.open(&other_uri, "markdown", "x\n");
    assert_eq!(codes(&c.published(&uri)), ["bidi-formatting-character"]);
    assert_eq!(c.shutdown(), 0);
}

/// The characters a page's bytes are when read as latin1 (ISO-8859-1: byte = code point).
fn as_latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

fn messages(c: &Client) -> Vec<String> {
    c.backlog
        .iter()
        .filter(|m| m["method"] == "window/showMessage")
        .map(|m| m["params"]["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_page_opened_in_another_encoding_than_it_declares_is_said_once_not_reported_as_mojibake() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("sjis.html");
    let uri = format!("file://{}", page.display());
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(
        "<meta charset=\"Shift_JIS\">\n<p>日本語のページ <a href=\"http://example.jp/資料/案内.html\">案内</a></p>\n",
    );
    std::fs::write(&page, &bytes).unwrap();
    let misread = as_latin1(&bytes);
    let (mut c, _) = Client::start(json!({}), dir.path());
    c.open(&uri, "html", &misread);
    assert_eq!(codes(&c.published(&uri)), Vec::<String>::new());
    // Edited (still misread): no findings, and nothing said again.
    let edited = format!("{misread}<p>more</p>\n");
    c.change(&uri, 2, &edited);
    let last = c.published_until(&uri, 2).pop().unwrap();
    assert_eq!(codes(&last), Vec::<String>::new());
    let said = messages(&c);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("declares Shift_JIS") && said[0].contains("decoded it as latin1"),
        "{}",
        said[0]
    );
    // Reopened as Shift_JIS: checked (and clean).
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let (text, _, _) = encoding_rs::SHIFT_JIS.decode(&bytes);
    c.open(&uri, "html", &text);
    let published = c.published_until(&uri, 1).pop().unwrap();
    assert_eq!(codes(&published), Vec::<String>::new());
    assert_eq!(messages(&c).len(), 1);
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn a_utf8_page_read_as_latin1_is_said_but_real_mojibake_in_a_utf8_page_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("utf8.html");
    let uri = format!("file://{}", page.display());
    let source =
        "<meta charset=\"utf-8\">\n<a href=\"http://example.org/caf\u{e9}\">caf\u{e9}</a>\n";
    std::fs::write(&page, source).unwrap();
    let (mut c, _) = Client::start(json!({}), dir.path());
    c.open(&uri, "html", &as_latin1(source.as_bytes()));
    assert_eq!(codes(&c.published(&uri)), Vec::<String>::new());
    assert_eq!(messages(&c).len(), 1, "{:?}", messages(&c));
    // The same characters really in the file (UTF-8, read as UTF-8): the page's own mojibake.
    let real = dir.path().join("real.html");
    let real_uri = format!("file://{}", real.display());
    let text = as_latin1(source.as_bytes());
    std::fs::write(&real, &text).unwrap();
    c.open(&real_uri, "html", &text);
    assert_eq!(codes(&c.published(&real_uri)), ["encoding-mojibake"]);
    assert_eq!(messages(&c).len(), 1);
    assert_eq!(c.shutdown(), 0);
}
