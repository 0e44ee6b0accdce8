//! Links libhiae for the `vs-libhiae` binary (feature `libhiae`) from `LIBHIAE_DIR`.

fn main() {
    println!("cargo::rerun-if-env-changed=LIBHIAE_DIR");
    if std::env::var_os("CARGO_FEATURE_LIBHIAE").is_none() {
        return;
    }
    match std::env::var("LIBHIAE_DIR") {
        Ok(dir) => {
            println!("cargo::rustc-link-search=native={dir}");
            // Relink when the library is rebuilt (other flags, another checkout).
            println!("cargo::rerun-if-changed={dir}/libhiae.a");
        }
        Err(_) => println!(
            "cargo::warning=feature `libhiae` without LIBHIAE_DIR (a directory holding \
             libhiae.a): vs-libhiae will not link; benches/vs-libhiae.sh builds libhiae and sets it"
        ),
    }
}
