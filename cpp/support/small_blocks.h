// SmallBlocks: a thread's cache of freed small heap blocks, by size class, for the WebAssembly builds'
// operator new/delete (bindings/new_delete.cpp). A run allocates and frees a few small blocks per node — a
// tensor's shape and strides, an Object's shared Tensor, argument lists — and in the pthreads build every
// malloc and free takes the allocator's mutex (two atomic read-modify-writes on shared memory): a chain of
// views spent 37% of its time in that lock. A freed block of up to 256 bytes goes to the freeing thread's
// cache instead and the next request of its class takes it back, without the allocator or its lock.
//
// Classes are 16-byte steps: class c serves requests of 16(c-1)+1 .. 16c bytes. A block joins the class its
// usable size covers (the largest c with 16c <= usable), so it can serve every request of that class
// whatever the allocator's padding; operator new asks the allocator for 16c bytes on a miss, so the block
// comes back to class c. At most kKeep blocks per class (≤ 136 KB a thread): the rest go back to free().
#pragma once
#include <cstddef>
#include <cstdint>

namespace fx {

class SmallBlocks {
 public:
  static constexpr size_t kStep = 16;
  static constexpr size_t kClasses = 16;  // up to 256 bytes
  static constexpr size_t kKeep = 64;     // blocks kept per class

  // The class a request of n bytes takes (1..kClasses); 0 for 0 bytes or more than kStep·kClasses.
  static constexpr size_t class_of_request(size_t n) {
    return n - 1 < kStep * kClasses ? (n + kStep - 1) / kStep : 0;
  }
  // The class a block with `usable` bytes serves in full; 0 when it serves none (under 16 bytes, or larger
  // than the largest class: such blocks go back to the allocator).
  static constexpr size_t class_of_block(size_t usable) {
    return usable / kStep <= kClasses ? usable / kStep : 0;
  }

  // A cached block of class c (1..kClasses), or nullptr.
  void* take(size_t c) {
    Free* f = head_[c];
    if (!f) return nullptr;
    head_[c] = f->next;
    --count_[c];
    return f;
  }
  // Keeps block p in class c; false (the caller frees it) for class 0 or a full class.
  bool keep(void* p, size_t c) {
    if (c == 0 || count_[c] >= kKeep) return false;
    Free* f = static_cast<Free*>(p);
    f->next = head_[c];
    head_[c] = f;
    ++count_[c];
    return true;
  }
  size_t count(size_t c) const { return count_[c]; }

 private:
  struct Free {
    Free* next;
  };
  // Plain arrays, no destructor: a thread_local SmallBlocks stays usable during static destruction.
  Free* head_[kClasses + 1] = {};
  uint16_t count_[kClasses + 1] = {};
};

}  // namespace fx
