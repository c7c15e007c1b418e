//! One game's text read into the main line of its game tree.

use super::lex::{self, Lexed, Lexeme};
use crate::record::{Format, RecordError};

pub(super) struct Value {
    pub text: String,
    /// Offset of the `[`.
    pub at: usize,
}

pub(super) struct Prop {
    pub ident: String,
    pub at: usize,
    /// At least one.
    pub values: Vec<Value>,
}

pub(super) struct Node {
    pub props: Vec<Prop>,
}

/// The main line of a game tree: at each fork, the first variation.
pub(super) struct Tree {
    pub at: usize,
    pub nodes: Vec<Node>,
}

struct Frame {
    at: usize,
    main: bool,
    nodes: usize,
    children: usize,
}

/// The first game tree of `text` (text before it is skipped), as far as it can be read:
/// the error says what stopped the reading, and the tree holds what came before it.
pub(super) fn read(text: &str) -> (Tree, Option<RecordError>) {
    let mut tree = Tree {
        at: 0,
        nodes: Vec::new(),
    };
    let error = build(text, &mut tree).err();
    (tree, error)
}

fn build(text: &str, tree: &mut Tree) -> Result<(), RecordError> {
    let b = text.as_bytes();
    let err = |at: usize, message: String| RecordError::at(Format::Sgf, text, at, message);
    let Some(open) = b.iter().position(|&c| c == b'(') else {
        return Err(err(
            0,
            "no game found: an SGF collection is one or more game trees '(;...)'".to_string(),
        ));
    };
    tree.at = open;
    let mut frames = vec![Frame {
        at: open,
        main: true,
        nodes: 0,
        children: 0,
    }];
    let mut in_node = false;
    let mut i = open + 1;
    while i < b.len() {
        let (lexeme, end) = match lex::lex(b, i, true) {
            Lexed::Token(lexeme, end) => (lexeme, end),
            Lexed::Unclosed { open, name } => {
                let ident = lex::ident(&text[name..open]);
                return Err(err(
                    open,
                    format!("the value of property {ident} is never closed: missing ']'"),
                ));
            }
            // Not at the end of the whole text.
            Lexed::More => break,
        };
        let frame = frames
            .last_mut()
            .expect("the tree is open while it is read");
        match lexeme {
            Lexeme::Open => {
                if frame.nodes == 0 {
                    return Err(err(
                        i,
                        "a variation '(' before any node: a game tree starts with a node ';'"
                            .to_string(),
                    ));
                }
                let main = frame.main && frame.children == 0;
                frame.children += 1;
                frames.push(Frame {
                    at: i,
                    main,
                    nodes: 0,
                    children: 0,
                });
                in_node = false;
            }
            Lexeme::Close => {
                if frame.nodes == 0 {
                    return Err(err(
                        frame.at,
                        "empty game tree: '(' must be followed by a node ';'".to_string(),
                    ));
                }
                frames.pop();
                in_node = false;
                if frames.is_empty() {
                    return Ok(());
                }
            }
            Lexeme::Node => {
                if frame.children > 0 {
                    return Err(err(
                        i,
                        "a node ';' after a variation: the nodes of a game tree come before its variations"
                            .to_string(),
                    ));
                }
                frame.nodes += 1;
                in_node = true;
                if frame.main {
                    tree.nodes.push(Node { props: Vec::new() });
                }
            }
            Lexeme::Prop { name_end } => {
                let raw = &text[i..name_end];
                let ident = lex::ident(raw);
                if ident.is_empty() {
                    return Err(err(
                        i,
                        format!("'{raw}' is not a property name (names are upper-case letters)"),
                    ));
                }
                if !in_node {
                    return Err(err(
                        i,
                        format!("property {ident} outside a node (a node starts with ';')"),
                    ));
                }
                let values: Vec<Value> = lex::values(text, name_end, end)
                    .into_iter()
                    .map(|(at, text)| Value { text, at })
                    .collect();
                if values.is_empty() {
                    return Err(err(
                        i,
                        format!("property {ident} has no value (expected {ident}[...])"),
                    ));
                }
                if frame.main {
                    if let Some(node) = tree.nodes.last_mut() {
                        node.props.push(Prop {
                            ident,
                            at: i,
                            values,
                        });
                    }
                }
            }
            Lexeme::Space => {}
            Lexeme::Other => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(err(
                    i,
                    format!("unexpected character '{ch}' (expected '(', ')', ';' or a property)"),
                ));
            }
        }
        i = end;
    }
    Err(err(
        frames[0].at,
        "the game tree opened here is never closed: missing ')'".to_string(),
    ))
}
