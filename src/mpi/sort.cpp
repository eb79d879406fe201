// The distributed sample sort of vkc/mpi.hpp. Every rank ranks its keys as the order contract
// does (key_bits.hpp: order, descending and bit range folded into one unsigned number), samples
// them in proportion to its share of the array, and all ranks sort the same gathered samples into
// the same splitters. Slots, as on a DeviceSet (device_set_sort.cpp): keys between two splitter
// values, or equal to one. The ranks' counts per slot give every key a global place (slot by
// slot, rank by rank, input order within), and rank r takes the places [bounds[r], bounds[r+1]):
// even shares, each boundary moved into the run of keys equal to its splitter, where a place is
// a place in the sorted output. Each rank sends its keys in place order, so that what a rank
// receives, concatenated in source-rank order, keeps equal keys in global input order, and a
// stable local sort finishes the job.
#include "vkc/mpi.hpp"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

#include "mpi/exchange.hpp"
#include "sort/key_bits.hpp"
#include "sort/splitters.hpp"
#include "vkc/device_set.hpp"

namespace vkc::mpi {

using detail::rank_of;
using detail::size_of;
using sorting::on_threads;
using sorting::with_width;

std::uint64_t detail::max_elements_per_message = std::uint64_t{1} << 27;

namespace {

constexpr std::uint64_t kSamplesPerRank = 256;
constexpr std::uint64_t kChunkElements = 1u << 16;  // the least a partitioning thread takes

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// Runs f and turns an exception on any rank into one on every rank (agree).
template <class F>
void together(MPI_Comm comm, F f) {
  std::exception_ptr failure;
  try {
    f();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
}

// An MPI type of `bytes` contiguous bytes: one element of a key or value array.
class ElementType {
 public:
  explicit ElementType(std::size_t bytes) {
    MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type_);
    MPI_Type_commit(&type_);
  }
  ~ElementType() { MPI_Type_free(&type_); }
  ElementType(const ElementType&) = delete;
  ElementType& operator=(const ElementType&) = delete;
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Writes a byte in every page of fresh memory from every core: the VM faults pages in slowly, and
// in parallel faster than MPI's one receiving thread would.
void touch_in_parallel(std::byte* data, std::uint64_t bytes) {
  constexpr std::uint64_t kPage = 4096;
  sorting::in_pieces(bytes, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t at = begin; at < end; at += kPage) data[at] = std::byte{0};
  });
}

// The all-to-all exchange of arrays whose elements go out `send[d]` to rank d (in rank order in
// `from`) and come in `recv[s]` from rank s (in rank order in `to`). Point-to-point messages of at
// most detail::max_elements_per_message elements, all posted at once: MPI counts elements in ints,
// and Alltoallv's displacements (ints too) would cap what a rank sends and receives at 2^31 - 1
// elements in all, where each message's own address here has no such cap. Messages between two
// ranks with one tag arrive in the order sent, so the k-th receive from a rank takes its k-th send.
void exchange(MPI_Comm comm, const std::byte* from, std::byte* to, std::size_t width,
              const std::vector<std::uint64_t>& send, const std::vector<std::uint64_t>& recv) {
  const int ranks = size_of(comm), me = rank_of(comm);
  const std::uint64_t chunk = std::clamp<std::uint64_t>(detail::max_elements_per_message, 1, INT_MAX);
  std::vector<std::uint64_t> send_first(ranks, 0), recv_first(ranks, 0);
  for (int r = 1; r < ranks; ++r) {
    send_first[r] = send_first[r - 1] + send[r - 1];
    recv_first[r] = recv_first[r - 1] + recv[r - 1];
  }
  // This rank's own part is copied here, on every core: MPI would pack and unpack it through the
  // element type, on one.
  sorting::copy_in_parallel(from + send_first[me] * width, to + recv_first[me] * width, send[me] * width);
  const ElementType element(width);
  constexpr int kTag = 55;
  std::vector<MPI_Request> requests;
  for (int r = 0; r < ranks; ++r) {
    if (r == me) continue;
    for (std::uint64_t done = 0; done < recv[r]; done += chunk) {
      MPI_Irecv(to + (recv_first[r] + done) * width, static_cast<int>(std::min(chunk, recv[r] - done)), element.get(),
                r, kTag, comm, &requests.emplace_back());
    }
    for (std::uint64_t done = 0; done < send[r]; done += chunk) {
      MPI_Isend(from + (send_first[r] + done) * width, static_cast<int>(std::min(chunk, send[r] - done)),
                element.get(), r, kTag, comm, &requests.emplace_back());
    }
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

// Each rank's keys ranked, the splitters, and every key's destination.
template <class Bits>
class Distribution {
 public:
  Distribution(MPI_Comm comm, sorting::KeyBits<Bits> bits, bool descending, const void* keys, std::uint64_t count)
      : comm_(comm), ranks_(size_of(comm)), me_(rank_of(comm)), keys_(bits, descending, keys),
        count_(count) {}

  void choose_splitters() {
    std::uint64_t total = count_;
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UINT64_T, MPI_SUM, comm_);
    total_ = total;
    // Samples in proportion to each rank's share, so that the splitters follow the whole array.
    const std::uint64_t all_samples = std::min<std::uint64_t>(total, kSamplesPerRank * ranks_);
    const std::uint64_t mine = total ? std::min(count_, (all_samples * count_ + total - 1) / total) : 0;
    std::vector<std::uint64_t> sample(mine);
    for (std::uint64_t s = 0; s < mine; ++s) sample[s] = rank(count_ * s / mine);
    const int sent = static_cast<int>(mine);
    std::vector<int> counts(ranks_), at(ranks_, 0);
    MPI_Allgather(&sent, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
    for (int r = 1; r < ranks_; ++r) at[r] = at[r - 1] + counts[r - 1];
    std::vector<std::uint64_t> gathered(at.back() + counts.back());
    MPI_Allgatherv(sample.data(), sent, MPI_UINT64_T, gathered.data(), counts.data(), at.data(), MPI_UINT64_T, comm_);
    std::sort(gathered.begin(), gathered.end());
    splitters_ = sorting::Splitters<Bits>::at_quantiles(gathered, ranks_);
  }

  // Every rank's count per slot; from them each slot's global first place, this rank's first place
  // in each slot, and each rank's range of places. The keys are counted in chunks, a thread each.
  void place_slots() {
    const std::size_t slots = splitters_.slots();
    chunks_ = sorting::chunks_for(count_, kChunkElements);
    chunk_counts_.assign(chunks_, std::vector<std::uint64_t>(slots, 0));
    on_threads(chunks_, [&](std::size_t c) {
      // Counted into the thread's own vector: neighbours on the heap share lines.
      chunk_counts_[c] = keys_.count_slots(splitters_, chunk_begin(c), chunk_begin(c + 1));
    });
    std::vector<std::uint64_t> mine(slots, 0);
    for (const auto& counts : chunk_counts_) {
      for (std::size_t s = 0; s < slots; ++s) mine[s] += counts[s];
    }
    std::vector<std::uint64_t> all(slots * ranks_);
    MPI_Allgather(mine.data(), static_cast<int>(slots), MPI_UINT64_T, all.data(), static_cast<int>(slots),
                  MPI_UINT64_T, comm_);
    slot_first_.assign(slots + 1, 0);
    first_place_.assign(slots, 0);
    std::uint64_t place = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      slot_first_[s] = place;
      for (int r = 0; r < ranks_; ++r) {
        if (r == me_) first_place_[s] = place;
        place += all[r * slots + s];
      }
    }
    slot_first_[slots] = place;
    local_in_slot_ = std::move(mine);
    bounds_ = splitters_.bounds(total_, ranks_, slot_first_);
  }

  // How many of this rank's keys go to each rank: its places in each slot cut by the ranges.
  std::vector<std::uint64_t> send_counts() const {
    std::vector<std::uint64_t> counts(ranks_, 0);
    for (std::size_t s = 0; s < local_in_slot_.size(); ++s) {
      const std::uint64_t begin = first_place_[s], end = begin + local_in_slot_[s];
      for (int r = 0; r < ranks_; ++r) {
        const std::uint64_t lo = std::max(begin, bounds_[r]), hi = std::min(end, bounds_[r + 1]);
        if (hi > lo) counts[r] += hi - lo;
      }
    }
    return counts;
  }

  // Calls move(i, q) for every key i with q its position in send order (slot by slot, input order
  // within): the order of places, hence of destination ranks. A thread per chunk.
  template <class Move>
  void in_send_order(Move move) const {
    const std::size_t slots = local_in_slot_.size();
    std::vector<std::vector<std::uint64_t>> next(chunks_, std::vector<std::uint64_t>(slots, 0));
    std::uint64_t q = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      for (std::size_t c = 0; c < chunks_; ++c) next[c][s] = q, q += chunk_counts_[c][s];
    }
    on_threads(chunks_, [&](std::size_t c) {
      std::vector<std::uint64_t> at = next[c];
      // The chunk's ends in locals: the moves' 64-bit stores could, to the compiler, change the
      // members chunk_begin divides, and it would divide again for every key.
      const std::uint64_t begin = chunk_begin(c), end = chunk_begin(c + 1);
      keys_.for_each_rank(begin, end, [&](std::uint64_t i, Bits rank) { move(i, at[slot(rank)]++); });
    });
  }

  std::uint64_t total() const { return total_; }
  std::uint64_t range_begin() const { return bounds_[me_]; }
  std::uint64_t range_size() const { return bounds_[me_ + 1] - bounds_[me_]; }

 private:
  Bits rank(std::uint64_t i) const { return keys_.rank(i); }
  std::uint64_t chunk_begin(std::size_t c) const { return count_ * c / chunks_; }
  std::size_t slot(Bits r) const { return splitters_.slot(r); }

  MPI_Comm comm_;
  int ranks_, me_;
  sorting::RankedKeys<Bits> keys_;
  std::uint64_t count_, total_ = 0;
  sorting::Splitters<Bits> splitters_;
  std::vector<std::uint64_t> local_in_slot_, first_place_, slot_first_, bounds_;
  std::size_t chunks_ = 1;
  std::vector<std::vector<std::uint64_t>> chunk_counts_;  // [chunk][slot]
};

}  // namespace

SortedSlice detail::gather_range(MPI_Comm comm, KeyType type, const void* keys, ValueType value_type,
                                 const void* values, std::uint64_t count, const SortOptions& options) {
  const std::size_t kw = key_bytes(type);
  const std::size_t vw = value_type == ValueType::none ? 0 : value_bytes(value_type);
  together(comm, [&] {
    if (count && (!keys || (vw && !values))) throw Error("mpi sort: null array for " + std::to_string(count) + " elements");
  });
  SortedSlice out;
  // Uninitialized: the partition's threads write every byte (and fault its pages in) at once.
  std::unique_ptr<std::byte[]> send_keys, send_values;
  std::vector<std::uint64_t> send, receive(size_of(comm));
  sorting::with_key_bits(type, options, [&](auto bits) {
    using Bits = std::remove_cv_t<decltype(bits.range)>;
    auto start = std::chrono::steady_clock::now();
    Distribution<Bits> d(comm, bits, options.order == SortOrder::descending, keys, count);
    d.choose_splitters();
    out.phases.sample_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    d.place_slots();
    send = d.send_counts();
    send_keys.reset(new std::byte[count * kw]);
    send_values.reset(new std::byte[count * vw]);
    const auto* key_in = static_cast<const std::byte*>(keys);
    const auto* value_in = static_cast<const std::byte*>(values);
    with_width(kw, [&](auto k) {
      if (!vw) {
        return d.in_send_order([&, out = send_keys.get()](std::uint64_t i, std::uint64_t q) {
          std::memcpy(out + q * k, key_in + i * k, k);
        });
      }
      with_width(vw, [&](auto v) {
        d.in_send_order([&, keys_out = send_keys.get(), values_out = send_values.get()](std::uint64_t i, std::uint64_t q) {
          std::memcpy(keys_out + q * k, key_in + i * k, k);
          std::memcpy(values_out + q * v, value_in + i * v, v);
        });
      });
    });
    out.total = d.total();
    out.offset = d.range_begin();
    out.count = d.range_size();
    out.phases.partition_ms = ms_since(start);
  });
  MPI_Alltoall(send.data(), 1, MPI_UINT64_T, receive.data(), 1, MPI_UINT64_T, comm);
  const auto start = std::chrono::steady_clock::now();
  out.keys.resize(out.count * kw);
  out.values.resize(out.count * vw);
  touch_in_parallel(out.keys.data(), out.keys.size());
  touch_in_parallel(out.values.data(), out.values.size());
  exchange(comm, send_keys.get(), out.keys.data(), kw, send, receive);
  if (vw) exchange(comm, send_values.get(), out.values.data(), vw, send, receive);
  out.phases.exchange_ms = ms_since(start);
  return out;
}

namespace {

// The distributed sort: this rank's range gathered, then sorted on its device.
SortedSlice sort_distributed(MPI_Comm comm, Context& ctx, KeyType type, const void* keys, ValueType value_type,
                             const void* values, std::uint64_t count, const SortOptions& options) {
  SortedSlice out = detail::gather_range(comm, type, keys, value_type, values, count, options);
  const auto start = std::chrono::steady_clock::now();
  together(comm, [&] {
    if (value_type != ValueType::none) {
      vkc::sort_pairs(ctx, type, out.keys.data(), value_type, out.values.data(), out.count, options);
    } else {
      vkc::sort(ctx, type, out.keys.data(), out.count, options);
    }
  });
  out.phases.local_sort_ms = ms_since(start);
  return out;
}

}  // namespace

void agree(MPI_Comm comm, const std::exception_ptr& failure) {
  const int ranks = size_of(comm);
  int first = failure ? rank_of(comm) : ranks;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == ranks) return;
  std::string message;
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      message = e.what();
    } catch (...) {
      message = "unknown error";
    }
  }
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, first, comm);
  message.resize(length);
  MPI_Bcast(message.data(), length, MPI_CHAR, first, comm);
  throw Error("rank " + std::to_string(first) + ": " + message);
}

SortedSlice sort(MPI_Comm comm, Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                 const SortOptions& options) {
  return sort_distributed(comm, ctx, type, keys, ValueType::none, nullptr, count, options);
}

SortedSlice sort_pairs(MPI_Comm comm, Context& ctx, KeyType key_type, const void* keys, ValueType value_type,
                       const void* values, std::uint64_t count, const SortOptions& options) {
  together(comm, [&] {
    if (value_type == ValueType::none) throw Error("mpi sort_pairs: the value type is none");
  });
  return sort_distributed(comm, ctx, key_type, keys, value_type, values, count, options);
}

std::string local_device(MPI_Comm comm) {
  MPI_Comm host;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  const int local = rank_of(host);
  MPI_Comm_free(&host);
  const std::vector<std::uint32_t> devices = choose_devices(enumerate_devices(), "all");
  return std::to_string(devices.at(static_cast<std::size_t>(local) % devices.size()));
}

}  // namespace vkc::mpi
