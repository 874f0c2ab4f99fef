// Children written straight into the AVX-512 counter's lanes (PositionLanes), up to eight at
// a time: generate_legal() hands the moves of one piece, or one kind of pawn move, as a set
// of target squares, and each field of those children is the parent's, broadcast, with the
// move's squares set or cleared, stored with one vector store. The children are
// make_move()'s, field for field. Needs AVX-512 VBMI2, to spread a set's squares over lanes.
#pragma once

#include "perftkit/count_moves_avx512.hpp"

#if PERFTKIT_HAS_AVX512_COUNT && defined(__AVX512VBMI2__) && defined(__BMI2__)
#define PERFTKIT_HAS_AVX512_CHILDREN 1

namespace perftkit {
namespace avx512 {
PERFTKIT_ISA_BEGIN

// The lowest (up to) eight squares of targets, one a lane, as square indices and as bits
// (zero in the lanes past them), and the mask of lanes that hold one.
struct TargetLanes {
  V square, bit;
  __mmask8 live;
  int size;

  PERFTKIT_FORCEINLINE explicit TargetLanes(Bitboard targets) {
    const __m512i square_bytes =
        _mm512_set_epi64(0x3F3E3D3C3B3A3938, 0x3736353433323130, 0x2F2E2D2C2B2A2928, 0x2726252423222120,
                         0x1F1E1D1C1B1A1918, 0x1716151413121110, 0x0F0E0D0C0B0A0908, 0x0706050403020100);
    const int count = perftkit::popcount(targets);
    size = count < 8 ? count : 8;
    live = __mmask8((1u << size) - 1);
    // (the zero-masked forms: g++ 12's plain ones trip -Wmaybe-uninitialized in its headers)
    const __m128i low = _mm512_maskz_extracti32x4_epi32(0xF, _mm512_maskz_compress_epi8(targets, square_bytes), 0);
    square = _mm512_maskz_cvtepu8_epi64(live, low);
    bit = _mm512_maskz_sllv_epi64(live, _mm512_set1_epi64(1), square);
  }
  // targets without the squares these lanes took.
  static PERFTKIT_FORCEINLINE Bitboard rest(Bitboard targets) { return _pdep_u64(~Bitboard(0xFF), targets); }
};

// A generate_legal() sink that writes each legal move's child (Us moves in pos) into out,
// from lane `at` on. make_room(at) is called when fewer lanes are free than the next write
// needs (eight at most), and returns the lane to write at next, lower. Writes are whole
// vectors, unmasked (a masked store is several times slower on a Zen 4): the lanes past a
// write's children are written over by the next write or never read, and out has eight lanes
// past Capacity for them. The parent's fields are broadcast once, and the next lane is kept
// here rather than behind a reference, which a vector store might alias.
template <Color Us, int Capacity, typename MakeRoom>
class LaneChildSink {
 public:
  LaneChildSink(const Position& pos, PositionLanes<Capacity + 8>& out, int at, MakeRoom& make_room)
      : pos_(pos),
        out_(out),
        make_room_(make_room),
        at_(at),
        us_(splat(pos.by_color[Us])),
        them_(splat(pos.by_color[Them])),
        pawns_(splat(pos.pawns)),
        knights_(splat(pos.knights)),
        diagonal_(splat(pos.diagonal)),
        orthogonal_(splat(pos.orthogonal)),
        kings_(splat(pos.kings)),
        castling_rooks_(splat(pos.castling_rooks)) {}

  int next_lane() const { return at_; }

  // A knight, bishop, rook, queen or king (not castling) moving from `from`, capture or not
  // (make_piece_move()): whatever stood on a target square is cleared, a rook that moves or
  // is captured loses its right, a king that moves loses both.
  template <PieceType Pt>
  PERFTKIT_FORCEINLINE void piece_moves(Square from, Bitboard targets) {
    const V f = splat(square_bb(from));
    constexpr Bitboard KEPT_RIGHTS = Pt == KING ? ~relative_rank_bb(Us, RANK_1) : ALL_SQUARES;
    for (; targets; targets = TargetLanes::rest(targets)) {
      const TargetLanes to(targets);
      const auto field = [&](bool moves_here, V b) { return moves_here ? (b ^ f) | to.bit : and_not(b, to.bit); };
      store(to, (us_ ^ f) | to.bit, and_not(them_, to.bit), and_not(pawns_, to.bit), field(Pt == KNIGHT, knights_),
            field(Pt == BISHOP || Pt == QUEEN, diagonal_), field(Pt == ROOK || Pt == QUEEN, orthogonal_),
            Pt == KING ? (kings_ ^ f) | to.bit : kings_, and_not(castling_rooks_ & splat(KEPT_RIGHTS), f | to.bit),
            splat(SQ_NONE));
    }
  }

  // Pawns moving by Offset onto targets (make_pawn_move()). A double push records the
  // en-passant square only when an enemy pawn stands beside its target.
  template <PawnBatch Kind, int Offset>
  PERFTKIT_FORCEINLINE void pawn_moves(Bitboard targets) {
    if constexpr (Kind == PawnBatch::PROMOTION) {
      one_at_a_time([&](auto& sink) { sink.template pawn_moves<Kind, Offset>(targets); });
    } else {
      for (; targets; targets = TargetLanes::rest(targets)) {
        const TargetLanes to(targets);
        const V from = shift_raw<-Offset>(to.bit);
        V en_passant = splat(SQ_NONE);
        if constexpr (Kind == PawnBatch::DOUBLE_PUSH) {
          const V beside = step<1>(to.bit) | step<-1>(to.bit);
          const __mmask8 capturable = _mm512_test_epi64_mask(beside, pawns_ & them_);
          en_passant = _mm512_mask_sub_epi64(en_passant, capturable, to.square, _mm512_set1_epi64(Offset / 2));
        }
        store(to, (us_ ^ from) | to.bit, and_not(them_, to.bit), (and_not(pawns_, to.bit) ^ from) | to.bit,
              and_not(knights_, to.bit), and_not(diagonal_, to.bit), and_not(orthogonal_, to.bit), kings_,
              and_not(castling_rooks_, to.bit), en_passant);
      }
    }
  }

  PERFTKIT_FORCEINLINE void en_passant(Square from, Square to) {
    one_at_a_time([&](auto& sink) { sink.en_passant(from, to); });
  }
  PERFTKIT_FORCEINLINE void castling(Square king, Square rook) {
    one_at_a_time([&](auto& sink) { sink.castling(king, rook); });
  }

 private:
  static constexpr Color Them = ~Us;

  // The rare moves (promotions, en passant, castling): the generator's VisitSink plays them,
  // and each child is set into its lane alone.
  template <typename Play>
  PERFTKIT_FORCEINLINE void one_at_a_time(Play&& play) {
    const auto put = [this](const Position& child, Move) {
      if (at_ == Capacity) [[unlikely]]
        at_ = make_room_(at_);
      out_.set(at_++, child);
    };
    VisitSink<Us, const decltype(put)> sink{pos_, put};
    play(sink);
  }

  PERFTKIT_FORCEINLINE void store(const TargetLanes& to, V us, V them, V pawns, V knights, V diagonal, V orthogonal,
                                  V kings, V castling_rooks, V en_passant) {
    if (at_ + to.size > Capacity) [[unlikely]]
      at_ = make_room_(at_);
    const int at = at_;
    const auto write = [&](std::uint64_t* lanes, V v) { _mm512_storeu_si512(lanes + at, v); };
    write(out_.by_color[Us], us), write(out_.by_color[Them], them), write(out_.pawns, pawns);
    write(out_.knights, knights), write(out_.diagonal, diagonal), write(out_.orthogonal, orthogonal);
    write(out_.kings, kings), write(out_.castling_rooks, castling_rooks), write(out_.ep_square, en_passant);
    at_ = at + to.size;
  }

  const Position& pos_;
  PositionLanes<Capacity + 8>& out_;
  MakeRoom& make_room_;
  int at_;
  const V us_, them_, pawns_, knights_, diagonal_, orthogonal_, kings_, castling_rooks_;
};

// Writes the child of every legal move of pos (Us to move) into out from lane n on (lanes up
// to Capacity, and eight more that may be written but are never filled), and advances n.
// make_room(n) is called when fewer lanes are free than the next write needs (eight at
// most), and returns the lane to write at next, lower.
template <Color Us, int Capacity, typename MakeRoom>
PERFTKIT_FORCEINLINE void append_children(const Position& pos, PositionLanes<Capacity + 8>& out, int& n,
                                          MakeRoom&& make_room) {
  LaneChildSink<Us, Capacity, std::remove_reference_t<MakeRoom>> sink(pos, out, n, make_room);
  generate_legal<Us>(pos, sink);
  n = sink.next_lane();
}

PERFTKIT_ISA_END
}  // namespace avx512
}  // namespace perftkit
#endif
