//! Prints the AES lane backends this CPU can run, fastest first.
fn main() {
    for b in aes_lanes::Backend::available() {
        println!("{b}");
    }
}
