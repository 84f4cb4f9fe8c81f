//! The rules of `tests/data/aeroplane-chess.md`, one or more tests per rule A1-A12.

use qiyi_aeroplane::board::{own_colour, ring_square, seats, HANGAR};
use qiyi_aeroplane::{Aero, AeroError, AeroMove, Rules, Takeoff, ThreeSixes};
use qiyi_core::{Game, Notation, Turn};

fn pos(text: &str) -> Aero {
    Aero::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Rolls `face` and, if a choice follows, moves `plane`.
fn roll_and_move(p: &mut Aero, face: u8, plane: Option<u8>) {
    assert_eq!(p.turn(), Turn::Chance, "{}", p.to_text());
    p.make(AeroMove::Roll(face));
    if let Some(i) = plane {
        assert!(matches!(p.turn(), Turn::Player(_)), "{}", p.to_text());
        let mv = p.parse_move(&((b'a' + i) as char).to_string()).unwrap();
        p.make(mv);
    }
}

#[test]
fn a1_two_to_four_players_in_seat_order() {
    assert_eq!(seats(2), &[0, 2]); // red + blue sit opposite
    assert_eq!(seats(3), &[0, 1, 2]);
    assert_eq!(seats(4), &[0, 1, 2, 3]);
    for n in 2..=4 {
        let p = Aero::new(Rules::STANDARD, n).unwrap();
        assert_eq!(p.players(), n);
        for q in 0..n {
            assert_eq!(p.planes(q), [HANGAR; 4], "4 planes each, all in the hangar");
        }
    }
    assert_eq!(
        Aero::new(Rules::STANDARD, 1),
        Err(AeroError::BadPlayerCount(1))
    );
    assert_eq!(
        Aero::new(Rules::STANDARD, 5),
        Err(AeroError::BadPlayerCount(5))
    );
}

#[test]
fn a2_progress_values_are_hangar_pad_ring_home_centre() {
    // Every progress 0..=56 and the hangar reads back; anything else is an error.
    for d in 0..=56u8 {
        let t = format!(
            "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes={d},H,H,H/H,H,H,H"
        );
        assert_eq!(pos(&t).planes(0)[0], d);
    }
    let bad = "standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=57,H,H,H/H,H,H,H";
    assert!(matches!(
        Aero::from_text(bad),
        Err(AeroError::BadPosition(_))
    ));
    // The seed rules have no launch pad.
    let seed0 = "seed players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=0,H,H,H/H,H,H,H";
    assert!(Aero::from_text(seed0).is_err());
}

#[test]
fn a3_ring_squares_and_collisions() {
    assert_eq!(ring_square(0, 1), 0);
    assert_eq!(ring_square(1, 1), 13);
    assert_eq!(ring_square(3, 50), (39 + 49) % 52);
    // Red at 11 rolls 4: lands on progress 15 = ring square 14, where yellow stands at its 2.
    let mut p = pos("standard players=4 move=0 roll=0 sixes=0 moved=0 places=0,0,0,0 planes=11,H,H,H/2,H,H,H/H,H,H,H/H,H,H,H");
    assert_eq!(ring_square(0, 15), ring_square(1, 2));
    roll_and_move(&mut p, 4, Some(0));
    assert_eq!(p.planes(0)[0], 15);
    assert_eq!(
        p.planes(1)[0],
        HANGAR,
        "the yellow plane collided and went home"
    );
}

#[test]
fn a4_own_colour_squares_are_2_mod_4() {
    let own: Vec<u8> = (0..=56).filter(|&d| own_colour(d)).collect();
    assert_eq!(own, (0..13).map(|k| 2 + 4 * k).collect::<Vec<u8>>());
    assert_eq!(own.last(), Some(&50));
    // The colours are those of the ring: every seat's colour squares are one residue mod 4.
    for seat in 0..4u8 {
        for &d in &own {
            assert_eq!(ring_square(seat, d) % 4, (seat + 1) % 4);
        }
    }
}

#[test]
fn a5_pad_and_home_column_are_safe() {
    // Red planes on the pad and in the home column (not 53): no blue move ever sends them home.
    let text =
        "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=0,51,52,55/45,47,48,49";
    for face in 1..=6 {
        let mut p = pos(text);
        p.make(AeroMove::Roll(face));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for mv in moves {
            let q = p.after(mv);
            assert_eq!(q.planes(0), [0, 51, 52, 55], "roll {face} {mv:?}");
        }
    }
}

#[test]
fn a6_take_off_only_on_six_by_default_and_options() {
    let start =
        "standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=H,H,H,H/H,H,H,H";
    for face in 1..=5 {
        let mut p = pos(start);
        p.make(AeroMove::Roll(face));
        assert_eq!(
            p.to_move(),
            1,
            "a {face} cannot take off: the roll is spent"
        );
        assert_eq!(p.turn(), Turn::Chance);
    }
    let mut p = pos(start);
    roll_and_move(&mut p, 6, Some(0));
    assert_eq!(
        p.planes(0)[0],
        0,
        "standard: a take-off goes to the launch pad"
    );
    let mut s =
        pos("seed players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=H,H,H,H/H,H,H,H");
    roll_and_move(&mut s, 6, Some(0));
    assert_eq!(
        s.planes(0)[0],
        1,
        "seed: a take-off goes straight to ring step 1"
    );
    // Options.
    let five = "standard takeoff=5-6 players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=H,H,H,H/H,H,H,H";
    let mut p = pos(five);
    roll_and_move(&mut p, 5, Some(0));
    assert_eq!(p.planes(0)[0], 0);
    let even = "standard takeoff=even players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=H,H,H,H/H,H,H,H";
    let mut p = pos(even);
    roll_and_move(&mut p, 2, Some(0));
    assert_eq!(p.planes(0)[0], 0);
    let mut p = pos(even);
    p.make(AeroMove::Roll(3));
    assert_eq!(
        p.to_move(),
        1,
        "an odd roll cannot take off under takeoff=even"
    );
    assert!(Rules {
        takeoff: Takeoff::Even,
        ..Rules::STANDARD
    }
    .can_take_off(4));
    // A plane on the board moves forward by the roll.
    let mut p =
        pos("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=3,H,H,H/H,H,H,H");
    roll_and_move(&mut p, 4, Some(0));
    assert_eq!(p.planes(0)[0], 7);
}

#[test]
fn a7_choose_one_plane_or_spend_the_roll() {
    let mut p =
        pos("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=3,20,20,H/H,H,H,H");
    p.make(AeroMove::Roll(1));
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    // Planes b and c stand together: one move; the hangar plane cannot take off on a 1.
    assert_eq!(moves, vec![AeroMove::Plane(0), AeroMove::Plane(1)]);
    assert_eq!(p.parse_move("c").unwrap(), AeroMove::Plane(1));
    assert!(matches!(p.parse_move("d"), Err(AeroError::IllegalMove(_))));
    p.make(AeroMove::Plane(1));
    assert_eq!(
        p.planes(0),
        [3, 21, 20, HANGAR],
        "only the chosen plane moved"
    );
    assert_eq!(p.to_move(), 1);
}

#[test]
fn a8_six_rolls_again_even_after_take_off() {
    let mut p =
        pos("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=H,H,H,H/H,H,H,H");
    roll_and_move(&mut p, 6, Some(0));
    assert_eq!((p.turn(), p.to_move(), p.sixes()), (Turn::Chance, 0, 1));
    roll_and_move(&mut p, 6, Some(0));
    assert_eq!(p.planes(0)[0], 6 + 4, "6 from the pad is own colour: jump");
    assert_eq!((p.turn(), p.to_move(), p.sixes()), (Turn::Chance, 0, 2));
    roll_and_move(&mut p, 1, Some(0));
    assert_eq!((p.to_move(), p.sixes()), (1, 0));
}

#[test]
fn a8_three_sixes_options() {
    let start =
        "PLACEHOLDER players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=20,H,H,H/H,H,H,H";
    let play3 = |three: &str| {
        let mut p = pos(&start.replace("PLACEHOLDER", &format!("standard three-sixes={three}")));
        roll_and_move(&mut p, 6, Some(0)); // 20 -> 26 -> jump 30
        roll_and_move(&mut p, 6, Some(1)); // take off
        p.make(AeroMove::Roll(6));
        p
    };
    let none = play3("none");
    assert_eq!(
        none.turn(),
        Turn::Player(0),
        "none: the third six is played"
    );
    let lose = play3("lose-turn");
    assert_eq!((lose.turn(), lose.to_move()), (Turn::Chance, 1));
    assert_eq!(
        lose.planes(0),
        [30, 0, HANGAR, HANGAR],
        "lose-turn: the turn ends, planes stay"
    );
    let back = play3("send-back");
    assert_eq!((back.turn(), back.to_move()), (Turn::Chance, 1));
    assert_eq!(
        back.planes(0),
        [HANGAR; 4],
        "send-back: both planes moved by sixes go home"
    );
    assert_eq!(Rules::STANDARD.three_sixes, ThreeSixes::SendBack);
    assert_eq!(Rules::SEED.three_sixes, ThreeSixes::None);
}

#[test]
fn a9_landing_sends_every_enemy_plane_home_also_after_a_jump() {
    // Two blue planes stacked on red's 9 (ring square 8): blue progress (8 - 26) mod 52 + 1 = 35.
    let mut p = pos(
        "standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=5,H,H,H/35,35,10,H",
    );
    roll_and_move(&mut p, 4, Some(0));
    assert_eq!(p.planes(0)[0], 9);
    assert_eq!(p.planes(1), [HANGAR, HANGAR, 10, HANGAR]);
    // After a jump: red lands on 6 and jumps to 10 (ring square 9 = blue progress 36).
    let mut p =
        pos("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=3,H,H,H/36,H,H,H");
    roll_and_move(&mut p, 3, Some(0));
    assert_eq!(p.planes(0)[0], 10);
    assert_eq!(p.planes(1)[0], HANGAR);
    // Own planes are not captured.
    let mut p =
        pos("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=5,9,H,H/H,H,H,H");
    roll_and_move(&mut p, 4, Some(0));
    assert_eq!(p.planes(0), [9, 9, HANGAR, HANGAR]);
}

#[test]
fn a10_jumps_and_the_flight() {
    let one = |set: &str, from: u8, roll: u8| {
        let mut p = pos(&format!(
            "{set} players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes={from},H,H,H/H,H,H,H"
        ));
        roll_and_move(&mut p, roll, Some(0));
        p.planes(0)[0]
    };
    assert_eq!(one("standard", 3, 3), 10, "6 -> jump to 10");
    assert_eq!(
        one("standard", 15, 3),
        34,
        "land on 18: fly to 30, jump to 34"
    );
    assert_eq!(
        one("standard", 12, 2),
        30,
        "14 -> jump to 18 -> fly to 30, stop"
    );
    assert_eq!(one("standard", 26, 4), 34, "land on 30: jump to 34");
    assert_eq!(
        one("standard", 22, 4),
        26 + 4,
        "26 -> 30 by a jump, no second jump"
    );
    assert_eq!(
        one("standard", 45, 5),
        50,
        "50 is own colour but d = 50: no jump"
    );
    assert_eq!(one("standard", 42, 4), 50, "46 -> jump to 50");
    assert_eq!(one("seed", 15, 3), 22, "seed: no flight, 18 jumps to 22");
    assert_eq!(one("seed", 12, 2), 18, "seed: 14 jumps to 18 and stops");
    // The flight crosses blue's home column at blue's 53 and sends that plane home.
    let mut p = pos(
        "standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=15,H,H,H/53,52,H,H",
    );
    roll_and_move(&mut p, 3, Some(0));
    assert_eq!(p.planes(1), [HANGAR, 52, HANGAR, HANGAR]);
    // Not in the seed rules.
    let mut p =
        pos("seed players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes=15,H,H,H/53,52,H,H");
    roll_and_move(&mut p, 3, Some(0));
    assert_eq!(p.planes(1), [53, 52, HANGAR, HANGAR]);
}

#[test]
fn a11_exact_finish_and_bounce() {
    let one = |from: u8, roll: u8| {
        let mut p = pos(&format!("standard players=2 move=0 roll=0 sixes=0 moved=0 places=0,0 planes={from},H,H,H/H,H,H,H"));
        roll_and_move(&mut p, roll, Some(0));
        p.planes(0)[0]
    };
    assert_eq!(one(54, 2), 56);
    assert_eq!(one(54, 5), 53, "54 + 5 = 59 bounces back 3");
    assert_eq!(one(55, 6), 51);
    assert_eq!(one(50, 6), 56);
    assert_eq!(one(49, 6), 55);
}

#[test]
fn a12_first_to_finish_wins_or_others_play_on() {
    let text = "standard players=3 move=1 roll=0 sixes=0 moved=0 places=0,0,0 planes=H,H,H,H/56,56,56,54/H,H,H,H";
    let mut p = pos(text);
    roll_and_move(&mut p, 2, Some(3));
    assert_eq!(p.turn(), Turn::Over);
    assert_eq!(p.winner(), Some(1));
    assert_eq!(p.returns(1), 1.0);
    assert_eq!(p.returns(0), -0.5);
    assert_eq!(p.returns(2), -0.5);
    let mut q = pos(&text.replace("standard", "standard end=play-on"));
    roll_and_move(&mut q, 2, Some(3));
    assert_eq!(q.turn(), Turn::Chance, "play-on: the others continue");
    assert_eq!(q.to_move(), 2);
    assert_eq!(q.places(), [0, 1, 0, 0]);
    // Yellow (finished) is skipped from now on.
    q.make(AeroMove::Roll(1));
    assert_eq!(q.to_move(), 0);
    // Second place ends a three-player game; the last player takes third.
    let mut r = pos("standard end=play-on players=3 move=2 roll=0 sixes=0 moved=0 places=0,1,0 planes=H,H,H,H/56,56,56,56/56,56,56,55");
    roll_and_move(&mut r, 1, Some(3));
    assert_eq!(r.turn(), Turn::Over);
    assert_eq!(r.places(), [3, 1, 2, 0]);
    assert_eq!([r.returns(0), r.returns(1), r.returns(2)], [-1.0, 1.0, 0.0]);
}

#[test]
fn bad_options_get_clear_errors() {
    let e = Rules::from_options("standrd", None, None).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad value \"standrd\" for rules: expected standard | seed"
    );
    assert!(Rules::from_options("seed", Some("7"), None).is_err());
    assert!(Rules::from_options("seed", None, Some("twice")).is_err());
    let r = Rules::from_options("seed", Some("even"), Some("lose-turn")).unwrap();
    assert_eq!(
        r.to_string(),
        "seed takeoff=even three-sixes=lose-turn end=first-wins"
    );
}
