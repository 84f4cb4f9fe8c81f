//! An endgame database on disk, damaged: a real 3-piece database (built once per process in a
//! temporary folder, 24 tables, a few KB) has one table file truncated, extended, overwritten,
//! bytes flipped or deleted as the input says, and `Egdb::load` reads the folder.
//!
//! Checked: a file of the wrong size is refused with `BadSize` naming its size, a missing file
//! with a not-found error (and `complete_pieces` no longer counts 3); a folder that loads answers
//! a probe for every position of the damaged table (both sides to move) without panic, and the
//! same as the undamaged database for every position of the other tables and for every position
//! when the bytes came out unchanged.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::engine::egdb::{flip, Egdb, EgdbError, Material};
use qiyi_checkers::{Board, Color};
use std::path::PathBuf;
use std::sync::OnceLock;

const PIECES: usize = 3;

struct Fixture {
    dir: PathBuf,
    db: Egdb,
    materials: Vec<Material>,
    files: Vec<Vec<u8>>,
    /// Every board of each material, Black to move.
    boards: Vec<Vec<Board>>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("qiyi-fuzz-egdb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Egdb::build(PIECES, Some(&dir), |_| {}).expect("the 3-piece database builds");
        let materials = Material::all_up_to(PIECES);
        let files = materials
            .iter()
            .map(|m| std::fs::read(dir.join(m.file_name())).expect("a table file"))
            .collect();
        let boards = materials.iter().map(boards_of).collect();
        Fixture {
            dir,
            db,
            materials,
            files,
            boards,
        }
    })
}

/// Every board of material `m`, Black to move (men on the squares they may stand on).
fn boards_of(m: &Material) -> Vec<Board> {
    fn place(free: u32, allowed: u32, n: u8, from: u32, out: &mut Vec<u32>, acc: u32) {
        if n == 0 {
            out.push(acc);
            return;
        }
        for s in from..32 {
            let bit = 1u32 << s;
            if free & bit != 0 && allowed & bit != 0 {
                place(free, allowed, n - 1, s + 1, out, acc | bit);
            }
        }
    }
    let all = u32::MAX;
    let black_men_squares = (1u32 << 28) - 1; // 1-28
    let white_men_squares = !((1u32 << 4) - 1); // 5-32
    let mut out = Vec::new();
    let mut bms = Vec::new();
    place(all, black_men_squares, m.bm, 0, &mut bms, 0);
    for &bm in &bms {
        let mut wms = Vec::new();
        place(!bm, white_men_squares, m.wm, 0, &mut wms, 0);
        for &wm in &wms {
            let mut bks = Vec::new();
            place(!(bm | wm), all, m.bk, 0, &mut bks, 0);
            for &bk in &bks {
                let mut wks = Vec::new();
                place(!(bm | wm | bk), all, m.wk, 0, &mut wks, 0);
                for &wk in &wks {
                    if let Ok(b) = Board::new(bm | bk, wm | wk, bk | wk, Color::Black) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let [which, mode, rest @ ..] = data else {
        return;
    };
    if rest.len() > 65536 {
        return;
    }
    let f = fixture();
    let i = *which as usize % f.materials.len();
    let m = f.materials[i];
    let path = f.dir.join(m.file_name());
    let original = &f.files[i];
    let n = |k: usize| {
        rest.iter()
            .take(k)
            .fold(0usize, |a, &b| a << 8 | usize::from(b))
    };
    let damaged: Option<Vec<u8>> = match mode % 5 {
        // Truncated to a length the input gives.
        0 => Some(original[..n(2) % (original.len() + 1)].to_vec()),
        // Extended by the input's bytes.
        1 => Some([original.as_slice(), rest].concat()),
        // Replaced by the input.
        2 => Some(rest.to_vec()),
        // Bytes flipped: (offset, xor) pairs.
        3 => {
            let mut b = original.clone();
            for pair in rest.chunks_exact(3) {
                let at = (usize::from(pair[0]) << 8 | usize::from(pair[1])) % b.len().max(1);
                if let Some(x) = b.get_mut(at) {
                    *x ^= pair[2];
                }
            }
            Some(b)
        }
        // Deleted.
        _ => None,
    };
    match &damaged {
        Some(bytes) => std::fs::write(&path, bytes).expect("write the damaged table"),
        None => std::fs::remove_file(&path).expect("remove the table"),
    }
    let loaded = Egdb::load(&f.dir, PIECES);
    let complete = Egdb::complete_pieces(&f.dir);
    // Put the folder back for the next input before anything can fail.
    std::fs::write(&path, original).expect("restore the table");

    match (&damaged, loaded) {
        (None, Err(EgdbError::Io { source, .. })) => {
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
            assert!(complete < PIECES, "a missing table is not complete");
        }
        (None, other) => panic!("a missing table must be refused: {other:?}"),
        (
            Some(bytes),
            Err(EgdbError::BadSize {
                expected, found, ..
            }),
        ) => {
            assert_ne!(
                bytes.len(),
                original.len(),
                "a table of the right size was refused"
            );
            assert_eq!(found, bytes.len() as u64);
            assert_eq!(expected, original.len() as u64);
        }
        (Some(_), Err(e)) => panic!("unexpected error {e}"),
        (Some(bytes), Ok(db)) => {
            assert_eq!(
                bytes.len(),
                original.len(),
                "a table of the wrong size was accepted"
            );
            assert_eq!(db.max_pieces(), PIECES);
            assert_eq!(db.bytes(), f.db.bytes());
            let unchanged = bytes == original;
            for &b in &f.boards[i] {
                for b in [b, flip(&b)] {
                    let v = db.probe(&b);
                    assert!(v.is_some(), "a loaded database answers every position");
                    if unchanged {
                        assert_eq!(v, f.db.probe(&b));
                    }
                }
            }
            // Another table (picked by the input) answers as before.
            let j = (i + 1 + usize::from(*mode)) % f.materials.len();
            if j != i {
                for b in f.boards[j].iter().step_by(7) {
                    assert_eq!(
                        db.probe(b),
                        f.db.probe(b),
                        "an undamaged table answers the same"
                    );
                }
            }
        }
    }
});
