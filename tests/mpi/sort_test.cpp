// The distributed sort (vkc/mpi.hpp) under mpirun with 1 to 4 ranks, each on the test's device:
// every rank builds the same global array, sorts its slice together with the others, and checks
// the gathered result against std::stable_sort of the whole array under the contract
// (sort/reference.hpp): every key type, both orders, pairs (stable: values are global positions),
// skew, all-equal keys, ranks without elements, fewer keys than ranks, exchanges in many rounds,
// and a failing rank that every rank reports.
#include <mpi.h>

#include <cstring>
#include <string>
#include <vector>

#include "mpi/exchange.hpp"
#include "sort/reference.hpp"
#include "support/gpu_test.hpp"
#include "vkc/mpi.hpp"

namespace vkc::test {
namespace {

int rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranks() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// The bytes of every rank's `mine`, in rank order, on every rank.
std::vector<std::byte> gather_all(const mpi::Bytes& mine) {
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(ranks()), at(ranks(), 0);
  MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 1; r < ranks(); ++r) at[r] = at[r - 1] + counts[r - 1];
  std::vector<std::byte> all(at.back() + counts.back());
  MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), at.data(), MPI_BYTE, MPI_COMM_WORLD);
  return all;
}

template <class T>
std::vector<T> as(const std::vector<std::byte>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Rank r's slice of n elements: [first(r), first(r + 1)); `everything_on` puts them all on one rank.
std::uint64_t first(int r, std::uint64_t n, int everything_on = -1) {
  if (everything_on >= 0) return r <= everything_on ? 0 : n;
  return n * r / ranks();
}

class MpiSort : public GpuTest {
 protected:
  SortOptions options(SortOrder order) const {
    SortOptions o;
    o.order = order;
    return o;
  }

  // Sorts `input` split across the ranks (all on one when everything_on >= 0), keys and pairs,
  // and checks the gathered result and each rank's offset and balance.
  template <class K>
  void expect_sorted(const std::vector<K>& input, SortOrder order, int everything_on = -1) {
    SCOPED_TRACE(std::to_string(ranks()) + " ranks, n=" + std::to_string(input.size()) + ", rank " + std::to_string(rank()));
    const std::uint64_t lo = first(rank(), input.size(), everything_on), hi = first(rank() + 1, input.size(), everything_on);
    const mpi::SortedSlice keys = mpi::sort(MPI_COMM_WORLD, ctx(), key_type_of<K>(), input.data() + lo, hi - lo,
                                            options(order));
    EXPECT_EQ(keys.total, input.size());
    EXPECT_EQ(keys.keys.size(), keys.count * sizeof(K));
    std::uint64_t before = 0;
    MPI_Exscan(&keys.count, &before, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_EQ(keys.offset, rank() == 0 ? 0 : before) << "ranges in rank order";
    // Even shares, moved only inside runs of equal keys or by sampling: at most twice the share.
    EXPECT_LE(keys.count, 2 * input.size() / ranks() + 8) << "balance";
    ASSERT_TRUE(keys_sorted(input, as<K>(gather_all(keys.keys)), order));

    std::vector<std::uint32_t> positions(hi - lo);
    for (std::uint64_t i = lo; i < hi; ++i) positions[i - lo] = static_cast<std::uint32_t>(i);
    const mpi::SortedSlice pairs = mpi::sort_pairs(MPI_COMM_WORLD, ctx(), key_type_of<K>(), input.data() + lo,
                                                   ValueType::u32, positions.data(), hi - lo, options(order));
    EXPECT_EQ(pairs.count, keys.count) << "pairs split as keys";
    ASSERT_TRUE(permutation_sorts(input, as<std::uint32_t>(gather_all(pairs.values)), order, /*stable=*/true));
  }
};

template <class T>
class MpiSortKeyTypes : public MpiSort {};
using KeyTypes = ::testing::Types<std::uint32_t, std::int32_t, float, std::uint64_t, std::int64_t, double,
                                  std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, Float16, BFloat16>;
TYPED_TEST_SUITE(MpiSortKeyTypes, KeyTypes);

TYPED_TEST(MpiSortKeyTypes, EveryTypeInBothOrders) {
  std::mt19937_64 rng(7);  // the same array on every rank
  for (SortOrder order : {SortOrder::ascending, SortOrder::descending}) {
    this->expect_sorted(make_keys<TypeParam>(20011, Dist::special, rng), order);
  }
}

TEST_F(MpiSort, SkewAndEqualKeys) {
  std::mt19937_64 rng(8);
  for (Dist dist : {Dist::equal, Dist::few, Dist::sorted, Dist::reverse}) {
    SCOPED_TRACE(dist_name(dist));
    expect_sorted(make_keys<std::uint32_t>(30000, dist, rng), SortOrder::ascending);
  }
  // All keys equal split evenly, by global position.
  const std::vector<std::uint32_t> equal(40000, 5);
  const mpi::SortedSlice s = mpi::sort(MPI_COMM_WORLD, ctx(), KeyType::u32, equal.data() + first(rank(), equal.size()),
                                       first(rank() + 1, equal.size()) - first(rank(), equal.size()));
  EXPECT_EQ(s.count, first(rank() + 1, equal.size()) - first(rank(), equal.size()));
}

TEST_F(MpiSort, RanksWithoutElementsAndFewerKeysThanRanks) {
  std::mt19937_64 rng(9);
  const auto keys = make_keys<float>(25000, Dist::uniform, rng);
  expect_sorted(keys, SortOrder::descending, /*everything_on=*/ranks() - 1);  // the others hold nothing
  expect_sorted(keys, SortOrder::ascending, /*everything_on=*/0);
  expect_sorted(make_keys<std::uint64_t>(2, Dist::uniform, rng), SortOrder::ascending);
  expect_sorted(std::vector<std::int32_t>{}, SortOrder::ascending);
}

TEST_F(MpiSort, ExchangeInManyRounds) {
  std::mt19937_64 rng(10);
  const auto saved = mpi::detail::max_elements_per_message;
  mpi::detail::max_elements_per_message = 777;
  expect_sorted(make_keys<std::int16_t>(20000, Dist::uniform, rng), SortOrder::ascending);
  mpi::detail::max_elements_per_message = saved;
}

TEST_F(MpiSort, AFailingRankFailsEveryRank) {
  std::vector<std::uint32_t> keys(100, 1);
  const bool failing = rank() == ranks() - 1;
  try {
    mpi::sort(MPI_COMM_WORLD, ctx(), KeyType::u32, failing ? nullptr : keys.data(), keys.size());
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("rank " + std::to_string(ranks() - 1) + ": mpi sort: null array", 0), 0u)
        << e.what();
  }
  // Still in step: a sort after it works.
  const mpi::SortedSlice s = mpi::sort(MPI_COMM_WORLD, ctx(), KeyType::u32, keys.data(), keys.size());
  EXPECT_EQ(s.total, 100u * ranks());
}

}  // namespace
}  // namespace vkc::test
