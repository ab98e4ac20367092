//! Argument names read from the kernel's source, for IR whose values have
//! none: clang drops value names before any pass plugin is loaded unless it
//! is given `-fno-discard-value-names` (the driver gives it; a raw clang
//! line often does not), and a report that says `arg0` and `arg1` says
//! little. The kernel's declaration is found by its name after `__global__`
//! in the module's source file; its names are taken only when every such
//! declaration with as many parameters as the IR has gives the same ones.

use std::path::Path;

/// Larger source files are not read (generated code).
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The names of `kernel`'s `count` parameters (None for an unnamed one) as
/// the file at `path` declares them, if it does.
pub fn parameter_names(path: &Path, kernel: &str, count: usize) -> Option<Vec<Option<String>>> {
    if std::fs::metadata(path).ok()?.len() > MAX_SOURCE_BYTES {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    names_in(&text, kernel, count)
}

/// The C++ name of a mangled symbol (None for a plain one).
pub fn demangle(symbol: &str) -> Option<String> {
    cpp_demangle::Symbol::new(symbol).ok()?.demangle().ok()
}

/// The unqualified name of the function `symbol` (`demangled`, when it is
/// a mangled C++ name): `ns::scale<float>(float*, int)` is `scale`.
pub fn base_name(symbol: &str, demangled: Option<&str>) -> String {
    let Some(full) = demangled else {
        return symbol.to_string();
    };
    // The name ends where its parameter list opens, outside template arguments.
    let mut depth = 0i32;
    let mut end = full.len();
    for (i, c) in full.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            '(' if depth == 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let mut name = full[..end].trim_end();
    if name.ends_with('>') {
        if let Some(open) = template_open(name) {
            name = &name[..open];
        }
    }
    let name = name.rsplit("::").next().unwrap_or(name);
    name.rsplit(' ').next().unwrap_or(name).to_string()
}

/// Where the template argument list that closes `name` opens.
fn template_open(name: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in name.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// [`parameter_names`] of the source text `text`.
pub fn names_in(text: &str, kernel: &str, count: usize) -> Option<Vec<Option<String>>> {
    let code = blank_comments_and_literals(text);
    let mut found: Option<Vec<Option<String>>> = None;
    for start in word_positions(&code, kernel) {
        let rest = &code[start + kernel.len()..];
        let open = start + kernel.len() + (rest.len() - rest.trim_start().len());
        if !code[open..].starts_with('(') {
            continue;
        }
        let Some(close) = matching_paren(&code, open) else {
            continue;
        };
        let declaration = code[..start].rfind([';', '{', '}']).map_or(0, |i| i + 1);
        if word_positions(&code[declaration..start], "__global__").is_empty() {
            continue;
        }
        let names: Vec<Option<String>> = parameters(&code[open + 1..close])
            .iter()
            .map(|p| parameter_name(p))
            .collect();
        if names.len() != count {
            continue;
        }
        match &found {
            None => found = Some(names),
            Some(earlier) if *earlier == names => {}
            Some(_) => return None,
        }
    }
    found
}

/// `text` with comments, string and character literals replaced by spaces
/// (byte offsets kept), so that no name is found inside them.
fn blank_comments_and_literals(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        let end = match (bytes[i], bytes.get(i + 1)) {
            (b'/', Some(b'/')) => find_from(bytes, i, b"\n").unwrap_or(bytes.len()),
            (b'/', Some(b'*')) => find_from(bytes, i + 2, b"*/").map_or(bytes.len(), |e| e + 2),
            (quote @ (b'"' | b'\''), _) => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != quote && bytes[j] != b'\n' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                (j + 1).min(bytes.len())
            }
            _ => {
                i += 1;
                continue;
            }
        };
        blank(&mut out, i, end);
        i = end;
    }
    // Only ASCII bytes were replaced, by ASCII spaces.
    String::from_utf8(out).unwrap_or_default()
}

fn find_from(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Byte offsets where `word` stands as a whole identifier.
fn word_positions(code: &str, word: &str) -> Vec<usize> {
    let bytes = code.as_bytes();
    code.match_indices(word)
        .map(|(i, _)| i)
        .filter(|&i| {
            let before = i.checked_sub(1).map(|b| bytes[b]);
            let after = bytes.get(i + word.len()).copied();
            !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
        .collect()
}

/// The `)` that closes the `(` at `open`.
fn matching_paren(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in code[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A parameter list split at its top-level commas; `()` and `(void)` have none.
fn parameters(list: &str) -> Vec<&str> {
    let trimmed = list.trim();
    if trimmed.is_empty() || trimmed == "void" {
        return Vec::new();
    }
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, c) in list.char_indices() {
        match c {
            '(' | '<' | '[' | '{' => depth += 1,
            ')' | '>' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&list[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&list[from..]);
    out
}

/// Words that end a parameter's type, never its name.
const TYPE_WORDS: &[&str] = &[
    "const",
    "volatile",
    "restrict",
    "__restrict__",
    "__restrict",
    "unsigned",
    "signed",
    "int",
    "long",
    "short",
    "char",
    "float",
    "double",
    "bool",
    "void",
    "auto",
    "size_t",
    "half",
    "__half",
    "struct",
    "class",
    "typename",
];

/// The name a parameter declares: its last identifier, when something
/// (its type) comes before it and it is not a word of the type.
fn parameter_name(parameter: &str) -> Option<String> {
    let declarator = parameter.split('=').next().unwrap_or(parameter);
    // Array bounds follow the name; a function pointer's name sits in parentheses.
    let declarator = declarator
        .split('[')
        .next()
        .unwrap_or(declarator)
        .trim_end();
    if declarator.contains('(') {
        return None;
    }
    let bytes = declarator.as_bytes();
    let end = bytes.len();
    let start = bytes
        .iter()
        .rposition(|&b| !is_ident(b))
        .map_or(0, |p| p + 1);
    let name = &declarator[start..end];
    let before = declarator[..start].trim_end();
    let named = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && !before.is_empty()
        && !TYPE_WORDS.contains(&name);
    named.then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str, kernel: &str, count: usize) -> Option<Vec<Option<String>>> {
        names_in(text, kernel, count)
    }

    fn some(list: &[&str]) -> Option<Vec<Option<String>>> {
        Some(
            list.iter()
                .map(|n| (!n.is_empty()).then(|| n.to_string()))
                .collect(),
        )
    }

    #[test]
    fn reads_the_names_of_a_kernel_s_parameters() {
        let text = r#"
            // upper(const char *x): a comment is not a declaration
            extern "C" __global__ void upper(const char *__restrict__ in,
                                             char *__restrict__ out, // the result
                                             unsigned long long n, int) {
              for (int i = 0; i < n; ++i) out[i] = in[i];
            }"#;
        assert_eq!(names(text, "upper", 4), some(&["in", "out", "n", ""]));
    }

    #[test]
    fn templates_defaults_arrays_and_launch_bounds() {
        let text = "template <typename T, int N>\n\
                    __global__ void __launch_bounds__(256) scale(T *data, const Pair<T, N> p,\n\
                        float factors[4], size_t, float alpha = 2.0f) {}";
        assert_eq!(
            names(text, "scale", 5),
            some(&["data", "p", "factors", "", "alpha"])
        );
    }

    #[test]
    fn only_global_declarations_with_the_ir_s_count_count() {
        // A device helper of the same name and a launch are not the kernel.
        let text = "__device__ int k(int a) { return a; }\n\
                    __global__ void k(float *x, float *y) {}\n\
                    void host() { k<<<1, 1>>>(p, q); }";
        assert_eq!(names(text, "k", 2), some(&["x", "y"]));
        assert_eq!(names(text, "k", 3), None);
        assert_eq!(names(text, "other", 2), None);
    }

    #[test]
    fn declarations_that_disagree_give_no_names() {
        let agree = "__global__ void k(float *x);\n__global__ void k(float *x) {}";
        assert_eq!(names(agree, "k", 1), some(&["x"]));
        let overloads = "__global__ void k(float *x) {}\n__global__ void k(int *y) {}";
        assert_eq!(names(overloads, "k", 1), None);
    }

    #[test]
    fn names_inside_comments_and_strings_are_not_declarations() {
        let text = "/* __global__ void k(int a) */ const char *s = \"__global__ void k(int b)\";";
        assert_eq!(names(text, "k", 1), None);
    }

    #[test]
    fn base_names_of_plain_and_mangled_symbols() {
        assert_eq!(base_name("upper", None), "upper");
        assert_eq!(
            base_name("_Z5scaleIfEvPT_i", Some("void scale<float>(float*, int)")),
            "scale"
        );
        assert_eq!(base_name("x", Some("ns::inner::k(int*)")), "k");
        assert_eq!(
            base_name("x", Some("void ns::k<Pair<int, 3> >(Pair<int, 3>*)")),
            "k"
        );
    }
}
