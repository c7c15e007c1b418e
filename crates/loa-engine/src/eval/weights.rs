//! The evaluation's weights, written by `loa-tune fit` (docs/tuning.md): fitted on 249393
//! positions of self-play games, error 0.1998. Fit again rather than edit by hand.

use super::Taper;

pub const CONCENTRATION: Taper = Taper::new(-178, -419);
pub const CENTRALISATION: Taper = Taper::new(58, 68);
pub const CENTRE_OF_MASS: Taper = Taper::new(215, 590);
pub const SOLID_QUADS: Taper = Taper::new(-154, 1655);
pub const EULER: Taper = Taper::new(15, -491);
pub const MOBILITY: Taper = Taper::new(48, 125);
pub const CONNECTIONS: Taper = Taper::new(17, -328);
pub const AREA: Taper = Taper::new(-45, -139);
pub const EDGE_BLOCKED: Taper = Taper::new(-303, -38);
pub const WALLED: Taper = Taper::new(80, -1107);
pub const PIECES: Taper = Taper::new(670, 1053);
/// The bonus for the side to move.
pub const TEMPO: Taper = Taper::new(55, 33);
