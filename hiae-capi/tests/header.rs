//! The headers in `include/` against the code: every declared function has exactly the C
//! prototype of the Rust function exported under its name (from [`hiae_capi::SIGNATURES`],
//! which the export macro derives from the Rust parameter types), the shared library exports
//! exactly the declared functions, and the constants, array sizes and enum values the
//! headers spell out equal the Rust ones.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use hiae_capi::{SIGNATURES, Signature};

const HEADERS: [&str; 3] = ["HiAE.h", "HiAEx2.h", "HiAEx4.h"];

fn header_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("include")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text without comments and preprocessor lines.
fn code(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("*/").expect("unterminated comment");
        rest = &rest[i + end + 2..];
    }
    out.push_str(rest);
    out.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `a * b` token spelling of a C type or declaration, with the `*` as its own token.
fn tokens(s: &str) -> Vec<String> {
    s.replace('*', " * ")
        .split_whitespace()
        .map(str::to_owned)
        .collect()
}

fn is_ident(t: &str) -> bool {
    t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A parameter's type without its name: `const uint8_t *key` → `const uint8_t *`.
fn param_type(p: &str) -> String {
    let mut t = tokens(p);
    if t.len() > 1 && t.last().is_some_and(|x| is_ident(x)) {
        t.pop();
    }
    spell(&t)
}

/// Tokens joined as the signatures write types: `const uint8_t *`.
fn spell(t: &[String]) -> String {
    t.join(" ")
}

/// The function declarations of a header: name → (return type, parameter types).
fn prototypes(text: &str) -> BTreeMap<String, (String, Vec<String>)> {
    let mut out = BTreeMap::new();
    for decl in code(text).split(';') {
        let decl = decl.trim();
        let (Some(open), Some(close)) = (decl.find('('), decl.rfind(')')) else {
            continue;
        };
        if decl.contains('{') || decl.contains('}') || decl.contains('=') {
            continue;
        }
        let mut head = tokens(&decl[..open]);
        let Some(name) = head.pop() else { continue };
        let params: Vec<String> = match decl[open + 1..close].trim() {
            "void" => vec![],
            p => p.split(',').map(param_type).collect(),
        };
        let prev = out.insert(name.clone(), (spell(&head), params));
        assert!(prev.is_none(), "{name} declared twice");
    }
    out
}

fn rust_prototypes(sigs: &[Signature]) -> BTreeMap<String, (String, Vec<String>)> {
    sigs.iter()
        .map(|s| {
            let params = s.params.iter().map(|p| spell(&tokens(p))).collect();
            (s.name.to_owned(), (spell(&tokens(s.ret)), params))
        })
        .collect()
}

#[test]
fn headers_declare_exactly_the_exported_functions() {
    for (header, sigs) in HEADERS.iter().zip(SIGNATURES) {
        let declared = prototypes(&header_text(header));
        let exported = rust_prototypes(sigs);
        assert_eq!(
            declared.len(),
            if *header == "HiAE.h" { 20 } else { 21 },
            "{header}"
        );
        assert_eq!(declared, exported, "{header} against the Rust declarations");
    }
}

/// The values of `#define NAME value` lines.
fn defines(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("#define "))
        .filter_map(|l| {
            let mut it = l.split_whitespace();
            Some((it.next()?.to_owned(), it.next()?.to_owned()))
        })
        .collect()
}

/// `NAME = value` inside the header's enums.
fn enum_values(text: &str) -> BTreeMap<String, u32> {
    let code = code(text);
    let mut out = BTreeMap::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("enum {") {
        let body = &rest[i + 6..];
        let end = body.find('}').expect("enum body");
        for item in body[..end].split(',') {
            if let Some((name, value)) = item.split_once('=') {
                out.insert(
                    name.trim().to_owned(),
                    value.trim().parse().expect("enum value"),
                );
            }
        }
        rest = &body[end..];
    }
    out
}

/// The length of the `uint8_t NAME[N]` array member called `member`.
fn array_len(text: &str, member: &str) -> usize {
    let pat = format!("{member}[");
    let code = code(text);
    let at = code.find(&pat).unwrap_or_else(|| panic!("no {pat}")) + pat.len();
    code[at..at + code[at..].find(']').expect("]")]
        .trim()
        .parse()
        .expect("array length")
}

#[test]
fn constants_and_layouts_match() {
    use core::mem::size_of;
    use hiae_capi::*;

    let sizes = [
        (size_of::<HiAE_state_t>(), 16),
        (size_of::<HiAEx2_state_t>(), 16),
        (size_of::<HiAEx4_state_t>(), 64),
    ];
    let prefixes = [("HIAE", "HIAE"), ("HIAEX2", "HiAEx2"), ("HIAEX4", "HiAEx4")];
    for ((header, (state, buffer)), (mac, enums)) in HEADERS.iter().zip(sizes).zip(prefixes) {
        let text = header_text(header);
        let d = defines(&text);
        assert_eq!(
            d[&format!("{mac}_KEYBYTES")],
            KEYBYTES.to_string(),
            "{header}"
        );
        assert_eq!(
            d[&format!("{mac}_NONCEBYTES")],
            NONCEBYTES.to_string(),
            "{header}"
        );
        assert_eq!(
            d[&format!("{mac}_MACBYTES")],
            MACBYTES.to_string(),
            "{header}"
        );
        assert_eq!(array_len(&text, "opaque"), state, "{header}");
        assert_eq!(array_len(&text, "buffer"), buffer, "{header}");
        let e = enum_values(&text);
        let expect = [
            ("_STREAM_INIT", PHASE_INIT),
            ("_STREAM_AD", PHASE_AD),
            ("_STREAM_MSG", PHASE_MSG),
            ("_STREAM_FINAL", PHASE_FINAL),
            ("_STREAM_MODE_NONE", MODE_NONE),
            ("_STREAM_MODE_ENCRYPT", MODE_ENCRYPT),
            ("_STREAM_MODE_DECRYPT", MODE_DECRYPT),
        ];
        assert_eq!(e.len(), expect.len(), "{header}");
        for (suffix, value) in expect {
            assert_eq!(
                e[&format!("{enums}{suffix}")],
                value,
                "{header} {enums}{suffix}"
            );
        }
    }
}

/// The shared library built with this test: cargo writes it next to the test executable
/// (`target/<profile>/deps/`; the copy one level up is from the last `cargo build`).
fn shared_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe.parent().expect("deps directory");
    let so = dir.join(format!(
        "{}hiae_capi{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    assert!(so.is_file(), "{} was not built", so.display());
    so
}

#[test]
#[cfg(target_os = "linux")]
fn shared_library_exports_exactly_the_declared_functions() {
    let so = shared_library();
    let out = Command::new("nm")
        .args(["-D", "--defined-only"])
        .arg(&so)
        .output()
        .expect("running nm (binutils) to list the exported symbols");
    assert!(
        out.status.success(),
        "nm failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[1] == "T").then(|| f[2].to_owned())
        })
        .collect();
    let mut declared: Vec<String> = HEADERS
        .iter()
        .flat_map(|h| prototypes(&header_text(h)).into_keys())
        .collect();
    declared.sort();
    let mut exported = exported;
    exported.sort();
    assert_eq!(exported, declared);
}
