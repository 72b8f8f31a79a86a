"""irilint's language server driven by pytest-lsp's client (pygls), announcing the capabilities
that real editors send (Neovim, VS Code, Emacs, as captured by pytest-lsp): the server must pick
a position encoding the editor offers, deliver diagnostics the way the editor asks for them
(pushed, or pulled when the editor pulls), offer quick fixes whose edits silence the finding,
and hover with the IRI's characters escaped. Run by `cargo test --test lsp_clients`."""

import asyncio
import os
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [os.environ.get("IRILINT_BIN", "irilint"), "lsp"]
RLO = "\u202e"
# An astral character before the link: 4 UTF-8 bytes, 2 UTF-16 units, 1 scalar value.
TEXT = f'<p>\r\n<p>\U00020BB7 <a href="http://a.example/{RLO}x">y</a></p>\r\n'
PREFIX = '<p>\U00020BB7 <a href="http://a.example/'
URI = "file:///tmp/irilint-editors/page.html"

EDITORS = ["neovim", "visual-studio-code", "emacs"]


def units(s: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(s.encode("utf-8"))
    if encoding == "utf-16":
        return len(s.encode("utf-16-le")) // 2
    return len(s)


def offset(text: str, pos: types.Position, encoding: str) -> int:
    lines = text.split("\n")
    at = sum(len(line) + 1 for line in lines[: pos.line])
    count = 0
    for k, ch in enumerate(lines[pos.line]):
        if count >= pos.character:
            return at + k
        count += units(ch, encoding)
    return at + len(lines[pos.line])


def apply(text: str, edits, encoding: str) -> str:
    spans = sorted(
        ((offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def pulls(capabilities: types.ClientCapabilities) -> bool:
    return capabilities.text_document is not None and capabilities.text_document.diagnostic is not None


async def diagnostics(client: LanguageClient, capabilities):
    """The document's diagnostics: pulled if the editor pulls, else the next ones pushed."""
    if pulls(capabilities):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=URI))
        )
        return report.items
    while URI not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics.pop(URI)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), params=EDITORS)
async def client(request, lsp_client: LanguageClient):
    capabilities = client_capabilities(request.param)

    # The editors these capabilities come from accept the server's request to watch its
    # configuration files; pytest-lsp's client does not implement it by itself.
    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams):
        assert [r.method for r in params.registrations] == [types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
        return None

    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=capabilities))
    lsp_client.irilint_result = result
    lsp_client.irilint_capabilities = capabilities
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_an_editor_sees_quick_fixes_and_hover(client: LanguageClient):
    capabilities = client.irilint_capabilities
    result = client.irilint_result
    offered = (capabilities.general and capabilities.general.position_encodings) or [types.PositionEncodingKind.Utf16]
    encoding = result.capabilities.position_encoding
    assert encoding in offered, (encoding, offered)

    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="html", version=1, text=TEXT)
        )
    )
    found = await diagnostics(client, capabilities)
    assert [d.code for d in found] == ["bidi-formatting-character"]
    start = found[0].range.start
    assert (start.line, start.character) == (1, units(PREFIX, encoding))
    assert RLO not in found[0].message and "U+202E" in found[0].message

    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=start)
    )
    assert RLO not in hover.contents.value
    assert "RIGHT-TO-LEFT OVERRIDE" in hover.contents.value

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=found),
        )
    )
    titles = [a.title for a in actions]
    assert "Suppress `bidi-formatting-character` on this line" in titles
    action = actions[titles.index("Suppress `bidi-formatting-character` on this line")]
    fixed = apply(TEXT, action.edit.changes[URI], encoding)
    assert "<!-- irilint-disable-next-line bidi-formatting-character -->\r\n" in fixed
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    assert list(await diagnostics(client, capabilities)) == []


async def diagnostics_of(client: LanguageClient, capabilities, uri: str):
    """`uri`'s diagnostics: pulled if the editor pulls, else the next ones pushed."""
    if pulls(capabilities):
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        return report.items
    while uri not in client.diagnostics:
        # A server that never publishes fails the test instead of hanging it.
        await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), 30)
    return client.diagnostics.pop(uri)


@pytest.mark.asyncio
async def test_a_saved_configuration_applies_at_the_next_save(client: LanguageClient, tmp_path):
    """Whether or not the editor watches files (Neovim on Linux does not), an irilint.toml
    saved next to the page applies once the page is saved: no restart."""
    capabilities = client.irilint_capabilities
    page = tmp_path / "page.html"
    text = f'<a href="http://a.example/{RLO}x">y</a>\n'
    page.write_text(text)
    uri = page.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="html", version=1, text=text)
        )
    )
    assert [d.code for d in await diagnostics_of(client, capabilities, uri)] == ["bidi-formatting-character"]
    (tmp_path / "irilint.toml").write_text('ignore = ["bidi"]\n')
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert list(await diagnostics_of(client, capabilities, uri)) == []


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
