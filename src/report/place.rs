//! Where CI reports say a file is: relative to the current directory (the repository root in
//! CI) when it is under it, as code scanning, annotations and GitLab need.

use std::path::{Component, Path, PathBuf};

use crate::config::lexical_absolute;

/// Resolves shown paths against one working directory.
#[derive(Debug, Clone)]
pub struct Places {
    cwd: PathBuf,
}

impl Places {
    /// Paths relative to the process's current directory.
    pub fn current() -> Places {
        Places::at(std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")))
    }

    /// Paths relative to `cwd` (absolute).
    pub fn at(cwd: PathBuf) -> Places {
        Places { cwd }
    }

    /// The working directory.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// `shown` relative to the working directory, `/`-separated, when it is under it
    /// (`./docs/../a.html` → `a.html`); `None` when it is elsewhere.
    pub fn relative(&self, shown: &str) -> Option<String> {
        let absolute = lexical_absolute(&self.cwd, Path::new(shown));
        let rest = absolute.strip_prefix(&self.cwd).ok()?;
        let parts: Vec<String> = rest
            .components()
            .map(|c| match c {
                Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        (!parts.is_empty()).then(|| parts.join("/"))
    }

    /// The path a report names: relative when under the working directory, else as shown.
    pub fn display(&self, shown: &str) -> String {
        self.relative(shown).unwrap_or_else(|| shown.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_the_directory_are_relative_and_others_are_not() {
        let places = Places::at(PathBuf::from("/repo"));
        assert_eq!(
            places.relative("docs/a.html").as_deref(),
            Some("docs/a.html")
        );
        assert_eq!(
            places.relative("./docs/../a.html").as_deref(),
            Some("a.html")
        );
        assert_eq!(places.relative("/repo/b.md").as_deref(), Some("b.md"));
        assert_eq!(places.relative("../other/c.md"), None);
        assert_eq!(places.relative("/elsewhere/c.md"), None);
        assert_eq!(places.relative("."), None);
        assert_eq!(places.display("/elsewhere/c.md"), "/elsewhere/c.md");
    }
}
