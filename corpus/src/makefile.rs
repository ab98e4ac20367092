//! What a corpus program's Makefile says about building and running it:
//! its sources, the compile flags that matter to a clang build (`-I`, `-D`,
//! `-std=`), the libraries it links and the arguments of its `run` target.
//! A small evaluator of the Make a benchmark collection writes: variables
//! (`=`, `:=`, `+=`, `?=`), `$(VAR)` and `${VAR}`, substitution references
//! (`$(source:.cu=.o)`), `$(wildcard ...)`, and `ifeq`/`ifneq`/`ifdef`/
//! `ifndef` blocks; anything else expands to nothing.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A program's build and run, as its Makefile gives them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MakeInfo {
    /// The executable's name (`program`).
    pub program: String,
    /// Its CUDA and C++ sources, relative to the program's directory.
    pub sources: Vec<String>,
    /// `-I`, `-D` and `-std=` flags of the compile.
    pub flags: Vec<String>,
    /// Libraries linked (`-lcublas`), beside the CUDA runtime.
    pub libs: Vec<String>,
    /// Flags of the compile that a one-source clang build cannot honour
    /// (`-rdc=true`, separate compilation).
    pub unsupported: Vec<String>,
    /// The arguments `make run` passes to the program.
    pub run_args: Vec<String>,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum MakefileError {
    #[error("no sources (`source = ...`)")]
    NoSources,
    #[error("no `run` target that starts ./{0}")]
    NoRun(String),
    #[error("an `{0}` without its `endif`")]
    UnclosedConditional(String),
}

/// Reads a Makefile; `files` are the names in the program's directory (for
/// `$(wildcard ...)`).
pub fn parse(text: &str, files: &[String]) -> Result<MakeInfo, MakefileError> {
    let mut make = Make {
        vars: BTreeMap::new(),
        files,
    };
    // Defaults a user's environment or command line would give.
    make.vars.insert("CC".into(), "nvcc".into());
    let mut rules: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut target: Option<String> = None;
    // Whether each open conditional's current branch is taken, and whether
    // the enclosing ones are.
    let mut conditionals: Vec<(bool, bool, String)> = Vec::new();
    let active = |c: &[(bool, bool, String)]| c.iter().all(|(taken, _, _)| *taken);
    for line in logical_lines(text) {
        if let Some(recipe) = line.strip_prefix('\t') {
            if active(&conditionals) {
                if let Some(t) = &target {
                    rules.entry(t.clone()).or_default().push(recipe.to_string());
                }
            }
            continue;
        }
        let line = strip_comment(&line);
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        let word = trimmed.split_whitespace().next().unwrap_or("");
        match word {
            "ifeq" | "ifneq" | "ifdef" | "ifndef" => {
                let outer = active(&conditionals);
                let holds = outer && make.condition(word, trimmed[word.len()..].trim());
                conditionals.push((holds, holds, word.to_string()));
                continue;
            }
            "else" => {
                let outer = active(&conditionals[..conditionals.len().saturating_sub(1)]);
                if let Some((taken, done, _)) = conditionals.last_mut() {
                    let rest = trimmed["else".len()..].trim();
                    if rest.is_empty() {
                        *taken = outer && !*done;
                    } else {
                        // `else ifeq (...)`
                        let w = rest.split_whitespace().next().unwrap_or("");
                        let holds = outer && !*done && make.condition(w, rest[w.len()..].trim());
                        *taken = holds;
                    }
                    *done |= *taken;
                }
                continue;
            }
            "endif" => {
                conditionals.pop();
                continue;
            }
            _ => {}
        }
        if !active(&conditionals) {
            continue;
        }
        if let Some((name, op, value)) = assignment(trimmed) {
            let value = value.trim().to_string();
            match op {
                "+=" => {
                    let old = make.vars.get(&name).cloned().unwrap_or_default();
                    make.vars
                        .insert(name, format!("{old} {value}").trim().to_string());
                }
                "?=" => {
                    make.vars.entry(name).or_insert(value);
                }
                ":=" | "::=" => {
                    let v = make.expand(&value, 0);
                    make.vars.insert(name, v);
                }
                _ => {
                    make.vars.insert(name, value);
                }
            }
            target = None;
            continue;
        }
        if let Some((targets, _)) = trimmed.split_once(':') {
            let first = make.expand(targets, 0);
            target = first.split_whitespace().next().map(str::to_string);
        }
    }
    if let Some((_, _, word)) = conditionals.last() {
        return Err(MakefileError::UnclosedConditional(word.clone()));
    }

    let program = make.value("program");
    let program = if program.is_empty() {
        "main".to_string()
    } else {
        program
    };
    let mut sources: Vec<String> = make
        .value("source")
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if sources.is_empty() {
        // `obj = main.o util.o` alone: each object's source is the file of
        // that stem the directory has.
        sources = make
            .value("obj")
            .split_whitespace()
            .filter_map(|o| o.strip_suffix(".o"))
            .map(|stem| {
                ["cu", "cpp", "c"]
                    .iter()
                    .map(|ext| format!("{stem}.{ext}"))
                    .find(|f| files.contains(f))
                    .unwrap_or_else(|| format!("{stem}.cu"))
            })
            .collect();
    }
    if sources.is_empty() {
        return Err(MakefileError::NoSources);
    }
    let mut flags = Vec::new();
    let mut unsupported = Vec::new();
    let compile = make.value("CFLAGS");
    let mut tokens = shlex::split(&compile).unwrap_or_default().into_iter();
    while let Some(t) = tokens.next() {
        if t == "-I" || t == "-D" {
            if let Some(v) = tokens.next() {
                flags.push(format!("{t}{v}"));
            }
        } else if t.starts_with("-I") || t.starts_with("-D") || t.starts_with("-std=") {
            flags.push(t);
        } else if t == "-rdc=true" || t == "-dc" || t == "--relocatable-device-code=true" {
            unsupported.push(t);
        }
    }
    let libs: Vec<String> = shlex::split(&make.value("LDFLAGS"))
        .unwrap_or_default()
        .into_iter()
        .filter(|t| t.starts_with("-l"))
        .collect();
    let run_args = rules
        .get("run")
        .and_then(|recipe| {
            recipe.iter().find_map(|line| {
                let line = make.expand(line, 0);
                let words = shlex::split(&line)?;
                let at = words.iter().position(|w| w == &format!("./{program}"))?;
                Some(words[at + 1..].to_vec())
            })
        })
        .ok_or_else(|| MakefileError::NoRun(program.clone()))?;
    Ok(MakeInfo {
        program,
        sources,
        flags,
        libs,
        unsupported,
        run_args,
    })
}

struct Make<'a> {
    vars: BTreeMap<String, String>,
    files: &'a [String],
}

impl Make<'_> {
    fn value(&self, name: &str) -> String {
        self.expand(&format!("$({name})"), 0)
    }

    /// Expands variable references; deeper than 32 levels (a variable that
    /// names itself) expands to nothing.
    fn expand(&self, text: &str, depth: usize) -> String {
        if depth > 32 {
            return String::new();
        }
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (open, close) = match after.chars().next() {
                Some('(') => ('(', ')'),
                Some('{') => ('{', '}'),
                Some('$') => {
                    out.push('$');
                    rest = &after[1..];
                    continue;
                }
                Some(c) => {
                    // `$@`, `$<`, `$X`: one character.
                    out.push_str(&self.reference(&c.to_string(), depth));
                    rest = &after[c.len_utf8()..];
                    continue;
                }
                None => {
                    rest = after;
                    continue;
                }
            };
            // The matching close, counting nested references.
            let mut level = 0usize;
            let mut end = None;
            for (i, c) in after.char_indices() {
                if c == open {
                    level += 1;
                } else if c == close {
                    level -= 1;
                    if level == 0 {
                        end = Some(i);
                        break;
                    }
                }
            }
            let Some(end) = end else {
                rest = "";
                continue;
            };
            out.push_str(&self.reference(&after[1..end], depth));
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out
    }

    /// The text of one reference `$(...)`.
    fn reference(&self, inner: &str, depth: usize) -> String {
        let inner = self.expand(inner, depth + 1);
        if let Some(pattern) = inner.strip_prefix("wildcard ") {
            let mut found = Vec::new();
            for p in pattern.split_whitespace() {
                found.extend(self.files.iter().filter(|f| glob(p, f)).cloned());
            }
            found.sort();
            return found.join(" ");
        }
        if inner.contains(' ') {
            // $(shell ...), $(patsubst ...) and other functions.
            return String::new();
        }
        if let Some((name, subst)) = inner.split_once(':') {
            if let Some((from, to)) = subst.split_once('=') {
                let value = self.expand(self.vars.get(name).map_or("", |v| v), depth + 1);
                return value
                    .split_whitespace()
                    .map(|w| match w.strip_suffix(from) {
                        Some(stem) => format!("{stem}{to}"),
                        None => w.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
            }
        }
        self.expand(self.vars.get(&inner).map_or("", |v| v), depth + 1)
    }

    /// `ifeq (a,b)`, `ifeq "a" "b"`, `ifdef VAR` and their negations.
    fn condition(&self, word: &str, args: &str) -> bool {
        match word {
            "ifdef" | "ifndef" => {
                let set = !self.value(args.trim()).is_empty();
                set == (word == "ifdef")
            }
            _ => {
                let (a, b) =
                    if let Some(inner) = args.strip_prefix('(').and_then(|a| a.strip_suffix(')')) {
                        split_comma(inner)
                    } else {
                        let parts = shlex::split(args).unwrap_or_default();
                        (
                            parts.first().cloned().unwrap_or_default(),
                            parts.get(1).cloned().unwrap_or_default(),
                        )
                    };
                let equal = self.expand(&a, 0).trim() == self.expand(&b, 0).trim();
                equal == (word == "ifeq")
            }
        }
    }
}

/// `a,b` at the comma outside references.
fn split_comma(inner: &str) -> (String, String) {
    let mut level = 0i32;
    for (i, c) in inner.char_indices() {
        match c {
            '(' | '{' => level += 1,
            ')' | '}' => level -= 1,
            ',' if level == 0 => {
                return (inner[..i].to_string(), inner[i + 1..].to_string());
            }
            _ => {}
        }
    }
    (inner.to_string(), String::new())
}

/// Lines with their `\` continuations joined.
fn logical_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for raw in text.lines() {
        match raw.strip_suffix('\\') {
            Some(part) => {
                current.push_str(part);
                current.push(' ');
            }
            None => {
                current.push_str(raw);
                lines.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

fn strip_comment(line: &str) -> &str {
    match line.find('#') {
        Some(at) => &line[..at],
        None => line,
    }
}

/// `NAME op value` for the assignment operators, when `line` is one.
fn assignment(line: &str) -> Option<(String, &'static str, &str)> {
    for op in ["::=", ":=", "+=", "?=", "="] {
        if let Some(at) = line.find(op) {
            let name = line[..at].trim();
            let valid = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.');
            // `a: b=c` is a rule with a target-specific variable, not ours.
            if valid && !line[..at].contains(':') {
                return Some((name.to_string(), op, &line[at + op.len()..]));
            }
            if op == "=" {
                return None;
            }
        }
    }
    None
}

/// `*` and `?` patterns against a file name.
fn glob(pattern: &str, name: &str) -> bool {
    fn go(p: &[u8], n: &[u8]) -> bool {
        match (p.first(), n.first()) {
            (None, None) => true,
            (Some(b'*'), _) => go(&p[1..], n) || (!n.is_empty() && go(p, &n[1..])),
            (Some(b'?'), Some(_)) => go(&p[1..], &n[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &n[1..]),
            _ => false,
        }
    }
    go(pattern.as_bytes(), name.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Makefile in the style of a benchmark collection (written here).
    const TYPICAL: &str = "\
# options
CC        = nvcc
OPTIMIZE  = yes
DEBUG     = no
ARCH      = sm_60
LAUNCHER  =

program = main
source = main.cu util.cu
obj = $(source:.cu=.o)

CFLAGS := $(EXTRA_CFLAGS) -std=c++14 -Xcompiler -Wall -arch=$(ARCH) \\
          -I../include -D USE_FAST
LDFLAGS = -lcublas

ifeq ($(DEBUG),yes)
  CFLAGS += -g -DDEBUG
endif
ifeq ($(OPTIMIZE),yes)
  CFLAGS += -O3 -DOPTIMIZED
else
  CFLAGS += -DSLOW
endif

$(program): $(obj) Makefile
\t$(CC) $(CFLAGS) $(obj) -o $@ $(LDFLAGS)

run: $(program)
\t$(LAUNCHER) ./$(program) 1024 ${ARCH} 10
";

    #[test]
    fn a_typical_makefile_gives_sources_flags_libs_and_run_arguments() {
        let info = parse(TYPICAL, &[]).unwrap();
        assert_eq!(info.program, "main");
        assert_eq!(info.sources, ["main.cu", "util.cu"]);
        assert_eq!(
            info.flags,
            ["-std=c++14", "-I../include", "-DUSE_FAST", "-DOPTIMIZED"]
        );
        assert_eq!(info.libs, ["-lcublas"]);
        assert!(info.unsupported.is_empty());
        assert_eq!(info.run_args, ["1024", "sm_60", "10"]);
    }

    #[test]
    fn wildcards_else_branches_and_separate_compilation() {
        let text = "\
program = bench
source = $(wildcard *.cu)
CFLAGS = -rdc=true
ifneq ($(OPTIMIZE),yes)
  CFLAGS += -DPLAIN
else ifeq ($(X),1)
  CFLAGS += -DNEVER
endif
run: $(program)
\t./bench -n 5 \"a b\"
";
        let files = ["b.cu", "a.cu", "notes.txt"].map(String::from);
        let info = parse(text, &files).unwrap();
        assert_eq!(info.sources, ["a.cu", "b.cu"]);
        assert_eq!(info.flags, ["-DPLAIN"]);
        assert_eq!(info.unsupported, ["-rdc=true"]);
        assert_eq!(info.run_args, ["-n", "5", "a b"]);
    }

    #[test]
    fn sources_come_from_the_objects_when_not_listed() {
        let text = "obj = main.o utils.o\nrun:\n\t./main 3\n";
        let files = ["main.cu", "utils.cpp"].map(String::from);
        let info = parse(text, &files).unwrap();
        assert_eq!(info.sources, ["main.cu", "utils.cpp"]);
    }

    #[test]
    fn missing_pieces_are_errors() {
        assert_eq!(
            parse("run:\n\t./main\n", &[]),
            Err(MakefileError::NoSources)
        );
        assert_eq!(
            parse("source = m.cu\nrun:\n\techo\n", &[]),
            Err(MakefileError::NoRun("main".into()))
        );
        assert_eq!(
            parse("ifeq (a,a)\nsource = m.cu\n", &[]),
            Err(MakefileError::UnclosedConditional("ifeq".into()))
        );
    }

    #[test]
    fn self_reference_and_rules_with_variables_do_not_hang() {
        let info = parse(
            "A = $(A) x\nsource = m.cu\nCFLAGS = $(A)\nall: CFLAGS=-DX\nrun:\n\t./main\n",
            &[],
        )
        .unwrap();
        assert!(info.run_args.is_empty());
        assert!(info.flags.is_empty());
    }

    #[test]
    fn globs() {
        assert!(glob("*.cu", "main.cu"));
        assert!(!glob("*.cu", "main.cpp"));
        assert!(glob("k?.cu", "k1.cu"));
    }
}
