//! Entry point: in the browser, mount the app; natively, the `toolscope` command line.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(toolscope::ui::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    std::process::exit(toolscope::cli::run(std::env::args().skip(1).collect()));
}
