//! The evaluation's weights, written by `loa-tune fit` (docs/tuning.md): fitted on 295,195
//! positions of self-play games, error 0.1979. Fit again rather than edit by hand.

pub const CONCENTRATION: i32 = -275;
pub const CENTRALISATION: i32 = -6;
pub const CENTRE_OF_MASS: i32 = 133;
pub const SOLID_QUADS: i32 = -230;
pub const EULER: i32 = 24;
pub const MOBILITY: i32 = 106;
pub const CONNECTIONS: i32 = 238;
pub const AREA: i32 = -33;
pub const EDGE_BLOCKED: i32 = -215;
pub const WALLED: i32 = -376;
/// The bonus for the side to move.
pub const TEMPO: i32 = 52;
