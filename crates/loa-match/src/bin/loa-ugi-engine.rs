//! The engine alone: the engine protocol on standard input and output, as `loa engine`
//! speaks it, for a GUI or a match that needs nothing else.

fn main() {
    loa_ugi::Session::serve_stdio();
}
