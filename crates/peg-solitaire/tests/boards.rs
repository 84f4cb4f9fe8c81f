//! Board shapes, names, jumps and symmetry groups computed from the shapes.

use qiyi_peg_solitaire::{Board, Lattice, PegError};

#[test]
fn classic_boards_have_their_hole_counts_and_groups() {
    // (name, holes, symmetries, centre)
    let expect = [
        ("english", 33, 8, Some("d4")),
        ("french", 37, 8, Some("d4")),
        ("wiegleb", 45, 8, Some("e5")),
        ("diamond", 41, 8, Some("e5")),
        ("triangle", 15, 6, None),
        ("triangle:4", 10, 6, Some("b3")),
        ("triangle:6", 21, 6, None),
        ("triangle:7", 28, 6, Some("c5")),
        ("triangle:8", 36, 6, None),
    ];
    for (name, holes, syms, centre) in expect {
        let b = Board::named(name).unwrap();
        assert_eq!(b.len(), holes, "{name}");
        assert_eq!(b.symmetries().len(), syms, "{name}");
        assert_eq!(
            b.centre().map(|c| b.hole_name(c).to_string()).as_deref(),
            centre,
            "{name}"
        );
    }
    assert_eq!(
        Board::named("triangle").unwrap().lattice(),
        Lattice::Triangular
    );
}

#[test]
fn english_board_has_76_jumps_and_the_centre_is_d4() {
    let b = Board::named("english").unwrap();
    assert_eq!(b.jumps().len(), 76);
    assert_eq!(b.hole("d4").unwrap(), b.centre().unwrap());
    assert_eq!(b.picture_start().count_ones(), 32);
    assert_eq!(b.picture_start() & (1 << b.hole("D4").unwrap()), 0);
}

#[test]
fn triangle_has_36_jumps() {
    // 15-hole triangle: 3 directions x 2 senses x 6 lines-of-three per direction.
    let b = Board::named("triangle").unwrap();
    assert_eq!(b.jumps().len(), 36);
    assert_eq!(b.hole_name(0), "a1");
    assert_eq!(b.hole_name(14), "e5");
}

#[test]
fn symmetry_of_a_custom_board_comes_from_its_shape() {
    // A 3x2 rectangle: only the 4 symmetries of a rectangle.
    let b = Board::from_picture("ooo\no.o\n").unwrap();
    assert_eq!(b.symmetries().len(), 4);
    // An L shape: only the diagonal reflection.
    let b = Board::from_picture("o\no\nooo\n").unwrap();
    assert_eq!(b.symmetries().len(), 2);
    // A staggered row of three on the triangular lattice: as permutations of the holes only the
    // identity and the reversal remain.
    let b = Board::from_picture("o o .\n").unwrap();
    assert_eq!(b.lattice(), Lattice::Triangular);
    assert_eq!(b.symmetries().len(), 2);
}

#[test]
fn picture_round_trips() {
    for name in [
        "english",
        "french",
        "wiegleb",
        "diamond",
        "triangle",
        "triangle:8",
    ] {
        let b = Board::named(name).unwrap();
        let text = b.picture(b.picture_start());
        let again = Board::from_picture(&text).unwrap();
        assert_eq!(again, b, "{name}");
        assert_eq!(again.picture_start(), b.picture_start(), "{name}");
    }
}

#[test]
fn bad_input_gets_typed_errors() {
    assert!(matches!(
        Board::named("hexagon"),
        Err(PegError::UnknownBoard(_))
    ));
    assert!(matches!(
        Board::named("triangle:3"),
        Err(PegError::TriangleSide(_))
    ));
    assert!(matches!(
        Board::named("triangle:x"),
        Err(PegError::TriangleSide(_))
    ));
    assert!(matches!(
        Board::from_picture("oo\nox\n"),
        Err(PegError::BadChar {
            line: 2,
            column: 2,
            ch: 'x'
        })
    ));
    assert!(matches!(
        Board::from_picture("  \n\n"),
        Err(PegError::EmptyBoard)
    ));
    let big = "o".repeat(27);
    assert!(matches!(
        Board::from_picture(&big),
        Err(PegError::TooLarge { .. })
    ));
    let many = "oooooooooo\n".repeat(13);
    assert!(matches!(
        Board::from_picture(&many),
        Err(PegError::TooManyHoles(130))
    ));
    let b = Board::named("english").unwrap();
    assert!(matches!(b.hole("a1"), Err(PegError::UnknownHole(_))));
    assert!(matches!(b.hole("z9"), Err(PegError::UnknownHole(_))));
}
