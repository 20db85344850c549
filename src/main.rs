//! Entry point: in the browser, mount the app; natively, the `toolscope` command line.

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(toolscope::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(toolscope::cli::run(std::env::args().skip(1).collect()));
}

/// Without the `ui` feature the wasm build is a library for the lazy module: nothing to mount.
#[cfg(all(target_arch = "wasm32", not(feature = "ui")))]
fn main() {}
