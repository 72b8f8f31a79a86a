//! Every configuration key, documented once: `irilint config` prints this table, the book's
//! table is generated from it (a test keeps them equal), and misspelt keys are matched against it.

/// One key of `irilint.toml`.
#[derive(Debug)]
pub struct OptionDoc {
    /// The key, kebab-case.
    pub name: &'static str,
    /// What its value is.
    pub kind: &'static str,
    /// Its value when not set.
    pub default: &'static str,
    /// Whether `[[overrides]]` tables accept it.
    pub in_overrides: bool,
    /// What it does (one paragraph of Markdown).
    pub doc: &'static str,
    /// A TOML example.
    pub example: &'static str,
}

/// The keys, in the order the documentation lists them.
pub const OPTIONS: &[OptionDoc] = &[
    OptionDoc {
        name: "extend",
        kind: "string (a path)",
        default: "none",
        in_overrides: false,
        doc: "Another configuration file this one starts from, relative to this file. Keys set \
              here replace the same keys there (the `extend-*` keys, `allow` and `[[overrides]]` \
              add to them); globs in each file stay relative to the file that wrote them. It may \
              name any `.toml` under this file's directory; above it, inside the repository, a \
              file named `irilint.toml`, `.irilint.toml`, `pyproject.toml` or `*irilint*.toml`, \
              or any file under the directory irilint runs in that is in no hidden directory \
              (the book's \"Limits and guarantees\" says why).",
        example: r#"extend = "../irilint.toml""#,
    },
    OptionDoc {
        name: "select",
        kind: "array of rule ids or groups",
        default: "every rule whose default severity is not `info`",
        in_overrides: true,
        doc: "Run only these rules or groups (`ALL`: every rule, `info` ones included). Replaces \
              the set so far, as `--select` does.",
        example: r#"select = ["bidi", "invisible", "syntax-invalid"]"#,
    },
    OptionDoc {
        name: "extend-select",
        kind: "array of rule ids or groups",
        default: "[]",
        in_overrides: true,
        doc: "Run these rules or groups too (the `info` rules are off until selected).",
        example: r#"extend-select = ["style"]"#,
    },
    OptionDoc {
        name: "ignore",
        kind: "array of rule ids or groups",
        default: "[]",
        in_overrides: true,
        doc: "Do not run these rules or groups.",
        example: r#"ignore = ["mixed-script"]"#,
    },
    OptionDoc {
        name: "severity",
        kind: "table: rule id or group → `\"error\"`, `\"warning\"`, `\"info\"` or `\"off\"`",
        default: "each rule's own",
        in_overrides: true,
        doc: "Report a rule (or every rule of a group) at this severity; a severity also turns \
              the rule on, `\"off\"` turns it off. Rule ids win over groups, whatever the order. \
              Only `error` makes the run fail (and `warning` with `--deny-warnings`).",
        example: "[severity]\nstyle = \"warning\"\nnot-nfkc = \"off\"",
    },
    OptionDoc {
        name: "exclude",
        kind: "array of gitignore-style globs",
        default: r#"["node_modules/", ".venv/", ".tox/", ".nox/", ".direnv/"]"#,
        in_overrides: true,
        doc: "Files and directories not to check, relative to this file (`legacy/`, \
              `/public/`, `*.min.html`). Replaces the default; files named on the command line \
              are excluded only with `--force-exclude`.",
        example: r#"exclude = ["node_modules/", "vendor/"]"#,
    },
    OptionDoc {
        name: "extend-exclude",
        kind: "array of gitignore-style globs",
        default: "[]",
        in_overrides: true,
        doc: "More files and directories not to check, in addition to `exclude`.",
        example: r#"extend-exclude = ["legacy/", "*.min.html"]"#,
    },
    OptionDoc {
        name: "input-format",
        kind: "table: gitignore-style glob → `\"text\"`, `\"html\"`, `\"xml\"`, `\"markdown\"`, `\"rst\"` or `\"asciidoc\"`",
        default: "by extension",
        in_overrides: true,
        doc: "Read the files a glob matches as this format; files with other extensions are \
              then found in directories too. The last matching glob wins; `--input-format` \
              wins over it for files named on the command line.",
        example: "[input-format]\n\"*.rst\" = \"text\"\n\"*.tmpl\" = \"html\"",
    },
    OptionDoc {
        name: "allow",
        kind: "array of regular expressions",
        default: "[]",
        in_overrides: true,
        doc: "IRIs (after the format's escapes are resolved) that no rule reports: an IRI is \
              allowed when a pattern matches anywhere in it (anchor with `^`/`$`). For intended \
              test URLs and internal hosts. Patterns add up across `extend` and overrides. \
              Syntax: the `regex` crate's.",
        example: r#"allow = ['^https?://localhost(:\d+)?/', '\.test/']"#,
    },
    OptionDoc {
        name: "overrides",
        kind: "array of tables, each with `files` and any key above but `extend`",
        default: "[]",
        in_overrides: false,
        doc: "Settings for the files `files` matches (gitignore-style globs relative to this \
              file), applied in order after the top-level keys; later tables win.",
        example: "[[overrides]]\nfiles = [\"legacy/**\"]\nignore = [\"not-nfc\"]\nseverity = { encoding = \"warning\" }",
    },
    OptionDoc {
        name: "files",
        kind: "array of gitignore-style globs (in `[[overrides]]` only; required there)",
        default: "none",
        in_overrides: true,
        doc: "The files an override applies to.",
        example: r#"files = ["*.svg", "legacy/"]"#,
    },
];

/// The option named `name`.
pub fn option(name: &str) -> Option<&'static OptionDoc> {
    OPTIONS.iter().find(|o| o.name == name)
}

/// The Markdown table of every key (the book's copy, docs/src/configuration.md, is generated from it).
pub fn markdown_table() -> String {
    let mut out = String::from("| key | value | default | what it does |\n|---|---|---|---|\n");
    for o in OPTIONS {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            o.name,
            o.kind,
            o.default,
            o.doc.replace('|', "\\|")
        ));
    }
    out
}

/// One key as `irilint config KEY` prints it.
pub fn describe(o: &OptionDoc) -> String {
    let overrides = if o.in_overrides {
        "also in [[overrides]]"
    } else {
        "top level only"
    };
    format!(
        "{}\n\n  value:   {}\n  default: {}\n  where:   {overrides}\n\n{}\n\nExample:\n\n{}\n",
        o.name,
        o.kind,
        o.default,
        textwrap(o.doc, 96),
        indent(o.example)
    )
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

fn textwrap(s: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}
