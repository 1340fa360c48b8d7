// The JavaScript facade over cpp/api/model.h — the only file that includes Emscripten headers.
// Rules: no C++ exception ever crosses into JS (each bound function catches everything and answers
// {"ok":false,"message","node"}); every answer is a JSON string (web/src/errors.js unwraps it); tensor
// and file bytes stay in the wasm heap and are described by (ptr, nbytes) for JS to copy, kept alive
// until JS calls fx_release.
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "api/graph_edit.h"
#include "api/model.h"
#include "api/resident.h"
#include "api/supported.h"
#include "api/wire.h"
#include "kernels/parallel.h"
#include "serialize/reader.h"
#include "support/error.h"

namespace fx {
namespace {

using ojson = nlohmann::ordered_json;

struct Entry {
  std::unique_ptr<Model> model;
  std::vector<Tensor> pending_tensors;  // outputs described to JS, until fx_release
  std::vector<uint8_t> pending_bytes;   // saved file, until fx_release
  std::vector<double> pending_packed;   // a run's packed output (api/wire.h), as long as its tensors
};

std::map<int, Entry>& registry() {
  static std::map<int, Entry> entries;
  return entries;
}
int next_handle = 1;

Entry& entry(int handle) {
  auto it = registry().find(handle);
  FX_CHECK(it != registry().end(), "no model with handle " + std::to_string(handle) + " (disposed?)");
  return it->second;
}

std::string dump(const ojson& j) { return j.dump(-1, ' ', false, ojson::error_handler_t::replace); }

std::string error_reply(const std::string& message, const std::string& node = {}) {
  ojson j{{"ok", false}, {"message", message}};
  if (!node.empty()) j["node"] = node;
  return dump(j);
}

// guarded()'s one body: every entry point shares it (a template per caller's lambda cost 1-3 KB of wasm
// each); guarded() adds only a thin thunk per caller.
std::string guarded_call(ojson (*body)(void*), void* ctx) {
  try {
    ojson reply = body(ctx);
    ojson out{{"ok", true}};
    for (auto it = reply.begin(); it != reply.end(); ++it) out[it.key()] = std::move(it.value());
    return dump(out);
  } catch (const FxError& e) {
    return error_reply(e.what(), e.node());
  } catch (const std::bad_alloc&) {
    return error_reply("out of memory");
  } catch (const std::exception& e) {
    return error_reply(std::string("internal error: ") + e.what());
  } catch (...) {
    return error_reply("internal error: unknown exception");
  }
}

// Runs `body` (which returns the reply's fields as a JSON object) and answers {"ok":true, ...fields}
// or an error reply; nothing escapes.
template <typename F>
std::string guarded(F&& body) {
  using Body = std::remove_reference_t<F>;
  return guarded_call([](void* ctx) -> ojson { return (*static_cast<Body*>(ctx))(); }, &body);
}

// Runs `body`, which returns a whole reply's text, or answers an error reply; nothing escapes. A template:
// a std::function of fx_run's lambda would allocate on every run.
template <typename F>
std::string guarded_text(F&& body) {
  try {
    return body();
  } catch (const FxError& e) {
    return error_reply(e.what(), e.node());
  } catch (const std::bad_alloc&) {
    return error_reply("out of memory");
  } catch (const std::exception& e) {
    return error_reply(std::string("internal error: ") + e.what());
  } catch (...) {
    return error_reply("internal error: unknown exception");
  }
}

// Splices an already-serialised JSON document into a reply without parsing it again.
std::string guarded_raw(const std::string& key, const std::function<std::string()>& body) {
  return guarded_text([&] { return "{\"ok\":true,\"" + key + "\":" + body() + "}"; });
}

// `allow_unsupported`: load for inspection even when the runtime cannot run every op.
std::string fx_load(uintptr_t ptr, size_t size, std::string source, bool allow_unsupported) {
  return guarded([&] {
    auto model = Model::load(reinterpret_cast<const uint8_t*>(ptr), size, source, allow_unsupported);
    const int handle = next_handle++;
    registry()[handle].model = std::move(model);
    return ojson{{"handle", handle}};
  });
}

// A 64-byte aligned heap block for a file's bytes (JS streams the file into it): {"ptr"}. JS frees it with
// _free if it gives up before fx_load_block; after fx_load_block the block belongs to the core.
std::string fx_alloc(size_t size) {
  return guarded([&] {
    uint8_t* block = alloc_file_block(size);
    if (!block) throw FxError("out of memory: cannot allocate " + std::to_string(size) + " bytes in the WebAssembly heap");
    return ojson{{"ptr", reinterpret_cast<uintptr_t>(block)}};
  });
}

// As fx_load, but takes the block (from fx_alloc) over, success or not: the model's tensors view the
// file's bytes in place, so loading copies no weights.
std::string fx_load_block(uintptr_t ptr, size_t size, std::string source, bool allow_unsupported) {
  return guarded([&] {
    std::shared_ptr<uint8_t> file = own_file_block(reinterpret_cast<uint8_t*>(ptr));  // frees it if this throws
    auto model = Model::load_block(std::move(file), size, source, allow_unsupported);
    const int handle = next_handle++;
    registry()[handle].model = std::move(model);
    return ojson{{"handle", handle}};
  });
}

std::string fx_new() {
  return guarded([&] {
    const int handle = next_handle++;
    registry()[handle].model = Model::empty();
    return ojson{{"handle", handle}};
  });
}

// One graph edit (api/graph_edit.h lists the commands).
std::string fx_edit(int handle, std::string command_json) {
  return guarded([&] { return edit_graph(*entry(handle).model, parse_wire_json(command_json)); });
}

// `tensor_json` is a wire tensor ({"$tensor": {dtype, shape, ptr, nbytes}}, api/wire.h); its bytes are copied.
std::string fx_add_tensor(int handle, std::string name, std::string tensor_json, std::string kind) {
  return guarded([&] {
    const Object t = object_from_wire(parse_wire_json(tensor_json), nullptr, "tensor '" + name + "'");
    add_tensor(*entry(handle).model, name, t.tensor(), kind);
    return ojson::object();
  });
}

std::string fx_shape_prop(int handle, std::string inputs_json) {
  return guarded([&] {
    std::vector<Object> args = inputs_from_wire(inputs_json, nullptr);
    return ojson{{"changed", run_shape_prop(*entry(handle).model, std::move(args))}};
  });
}

std::string fx_replace_pattern(int handle, int pattern, int replacement) {
  return guarded([&] {
    return replace_pattern(*entry(handle).model, *entry(pattern).model, *entry(replacement).model);
  });
}

std::string fx_tabular(int handle) {
  return guarded([&] { return ojson{{"text", entry(handle).model->print_tabular()}}; });
}

std::string fx_code(int handle) {
  return guarded([&] { return ojson{{"text", entry(handle).model->code()}}; });
}

std::string fx_graph(int handle) {
  return guarded_raw("graph", [&] { return entry(handle).model->graph_json(); });
}

std::string fx_modules(int handle) {
  return guarded_raw("modules", [&] { return entry(handle).model->modules_json(); });
}

std::string fx_tensors(int handle) {
  return guarded_raw("tensors", [&] { return entry(handle).model->tensors_json(); });
}

// One named tensor, handed over as run outputs are (released with fx_release).
std::string fx_get_tensor(int handle, std::string name) {
  return guarded([&] {
    Entry& e = entry(handle);
    const Tensor& t = e.model->tensor(name);
    e.pending_tensors.clear();
    return ojson{{"tensor", object_to_wire(Object(t), e.pending_tensors)}};
  });
}

std::string fx_info(int handle) {
  return guarded_raw("info", [&] { return entry(handle).model->info_json(); });
}

// Run-call scratch (doubles): JS writes the addresses of the input blocks it hands over, then the packed
// inputs (fx_run).
std::vector<double>& scratch() {
  static std::vector<double> s;
  return s;
}

// At least `n` doubles of scratch; its address (0 when out of memory). It moves when it grows.
uintptr_t fx_scratch(size_t n) {
  try {
    if (scratch().size() < n) scratch().resize(n);
    return reinterpret_cast<uintptr_t>(scratch().data());
  } catch (...) {
    return 0;
  }
}

// A 64-byte aligned block for one input tensor's bytes (0 when out of memory); a run takes it over.
uintptr_t fx_alloc_input(size_t size) { return reinterpret_cast<uintptr_t>(alloc_file_block(size)); }

// The dtype codes of the packed form (api/wire.h), in order.
std::string fx_wire_dtypes() {
  return guarded([&] {
    ojson names = ojson::array();
    for (int i = 0; i < kWireDTypes; ++i) names.push_back(dtype_name(static_cast<DType>(i)));
    return ojson{{"dtypes", std::move(names)}};
  });
}

// Runs on inputs in the value dialect (api/wire.h): the JSON array `inputs_json`, or when `npacked` > 0 the
// packed tuple of `npacked` doubles that follows the block addresses in the scratch (the usual all-tensor
// call: no JSON). The first `nblocks` scratch doubles address heap blocks (from fx_alloc_input) the
// inputs' tensors live in: the run takes them over, success or not. Replies {"ok":true,"outputs":V} (plus
// "profile"), V in the dialect's JSON or, when the output packs, {"$packed":<address>} (kept with the
// output's tensors until fx_release_outputs or fx_release). `resident`: a packed output's tensors stay in
// the runtime (api/resident.h) instead. A graph that writes in place is given copies of resident inputs:
// a grown cache shares its block with older views of it.
std::string fx_run(int handle, std::string inputs_json, size_t nblocks, size_t npacked, bool with_profile,
                   bool resident) {
  return guarded_text([&] {
    FX_CHECK(nblocks + npacked <= scratch().size(), "run: the scratch holds fewer doubles than the call names");
    const WireBlocks blocks = own_wire_blocks(scratch().data(), nblocks);
    Entry& e = entry(handle);
    auto names = [&e] { return e.model->input_names(); };
    const CopyResident copy_resident = [&e] { return e.model->mutates_in_place(); };
    const std::vector<Object> args =
        npacked ? inputs_from_packed(scratch().data() + nblocks, npacked, blocks, names, copy_resident)
                : inputs_from_wire(inputs_json, &blocks, names(), copy_resident);
    Profile profile;
    const Object out = e.model->run(args, with_profile ? &profile : nullptr);
    e.pending_tensors.clear();
    std::string reply;
    reply.reserve(64);
    reply += "{\"ok\":true,\"outputs\":";
    if (object_to_packed(out, e.pending_tensors, e.pending_packed, resident)) {
      reply += "{\"$packed\":";
      reply += std::to_string(reinterpret_cast<uintptr_t>(e.pending_packed.data()));
      reply += '}';
    } else {
      reply += dump(object_to_wire(out, e.pending_tensors));
    }
    if (with_profile) reply += ",\"profile\":" + profile_json(profile);
    reply += '}';
    return reply;
  });
}

// A resident tensor's bytes for JS to copy: {"ptr","nbytes"} of its contiguous form, valid until the next
// fx_resident_read.
std::string fx_resident_read(double id) {
  static Tensor pending;
  return guarded([&] {
    pending = resident_tensors().get(static_cast<int64_t>(id)).contiguous();
    const double ptr = pending.numel() ? static_cast<double>(reinterpret_cast<uintptr_t>(pending.raw_data())) : 0;
    return ojson{{"ptr", ptr}, {"nbytes", pending.nbytes()}};
  });
}

void fx_resident_free(double id) { resident_tensors().free(static_cast<int64_t>(id)); }
double fx_resident_count() { return static_cast<double>(resident_tensors().size()); }

// As fx_release, without a reply: after a run's outputs are copied out.
void fx_release_outputs(int handle) {
  const auto it = registry().find(handle);
  if (it == registry().end()) return;
  it->second.pending_tensors.clear();
  it->second.pending_tensors.shrink_to_fit();
}

std::string fx_reference(int handle) {
  return guarded([&] {
    Entry& e = entry(handle);
    const Reference& ref = e.model->graph_module().reference();
    if (!ref.present) return ojson{{"present", false}};
    e.pending_tensors.clear();
    ojson inputs = ojson::array();
    for (const Object& x : ref.inputs) inputs.push_back(object_to_wire(x, e.pending_tensors));
    return ojson{{"present", true}, {"inputs", std::move(inputs)},
                 {"outputs", object_to_wire(ref.outputs, e.pending_tensors)}};
  });
}

std::string fx_check(int handle, double rtol, double atol, bool equal_nan) {
  return guarded_raw("report", [&] { return entry(handle).model->check(rtol, atol, equal_nan).to_json(); });
}

std::string fx_save(int handle) {
  return guarded([&] {
    Entry& e = entry(handle);
    e.pending_bytes = e.model->save();
    return ojson{{"ptr", static_cast<uint64_t>(reinterpret_cast<uintptr_t>(e.pending_bytes.data()))},
                 {"nbytes", e.pending_bytes.size()}};
  });
}

std::string fx_release(int handle) {
  return guarded([&] {
    Entry& e = entry(handle);
    e.pending_tensors.clear();
    e.pending_tensors.shrink_to_fit();
    std::vector<uint8_t>().swap(e.pending_bytes);
    return ojson::object();
  });
}

std::string fx_dispose(int handle) {
  return guarded([&] {
    registry().erase(handle);
    return ojson::object();
  });
}

// The model's runtime arena (tensor/buffer_pool.h) after its last run: the most tensor bytes a run held at
// once, the arena's size, and the blocks the last run had to allocate (0 once runs repeat their shapes).
std::string fx_run_memory(int handle) {
  return guarded([&] {
    const BufferPool::Stats m = entry(handle).model->run_memory();
    return ojson{{"peak_bytes", m.peak_live_bytes}, {"arena_bytes", m.reserved_bytes}, {"fresh_blocks", m.fresh_blocks}};
  });
}

// What the runtime supports (api/supported.h), for `fxwasm ops` and supportedOps().
std::string fx_supported_ops() {
  return guarded_raw("ops", [] { return supported_ops_json(); });
}

// The heap's size and the bytes malloc has handed out and not had back (dlmalloc's mallinfo), for tests
// that check memory stays flat (tests/js/memory.test.js): the heap itself never shrinks, in-use bytes do.
std::string fx_memory() {
  return guarded([&] {
    const struct mallinfo info = mallinfo();
    return ojson{{"heap_bytes", static_cast<uint64_t>(__builtin_wasm_memory_size(0)) * 65536},
                 {"in_use_bytes", static_cast<uint64_t>(info.uordblks)},
                 {"models", registry().size()}};
  });
}

// The kernels' thread count (kernels/parallel.h): always 1 in fxwasm.wasm (max_threads 1); in
// fxwasm-threads.wasm the caller (web/src/runtime.js) keeps it ≤ the workers it started + 1.
std::string fx_set_threads(int n) {
  return guarded([&] {
    const int set = kernels::set_num_threads(n);
    return ojson{{"threads", set}, {"max_threads", kernels::max_threads()}};
  });
}

}  // namespace
}  // namespace fx

EMSCRIPTEN_BINDINGS(fxwasm) {
  emscripten::function("fx_set_threads", &fx::fx_set_threads);
  emscripten::function("fx_load", &fx::fx_load);
  emscripten::function("fx_alloc", &fx::fx_alloc);
  emscripten::function("fx_load_block", &fx::fx_load_block);
  emscripten::function("fx_new", &fx::fx_new);
  emscripten::function("fx_edit", &fx::fx_edit);
  emscripten::function("fx_add_tensor", &fx::fx_add_tensor);
  emscripten::function("fx_shape_prop", &fx::fx_shape_prop);
  emscripten::function("fx_replace_pattern", &fx::fx_replace_pattern);
  emscripten::function("fx_tabular", &fx::fx_tabular);
  emscripten::function("fx_code", &fx::fx_code);
  emscripten::function("fx_graph", &fx::fx_graph);
  emscripten::function("fx_info", &fx::fx_info);
  emscripten::function("fx_modules", &fx::fx_modules);
  emscripten::function("fx_tensors", &fx::fx_tensors);
  emscripten::function("fx_get_tensor", &fx::fx_get_tensor);
  emscripten::function("fx_run", &fx::fx_run);
  emscripten::function("fx_release_outputs", &fx::fx_release_outputs);
  emscripten::function("fx_resident_read", &fx::fx_resident_read);
  emscripten::function("fx_resident_free", &fx::fx_resident_free);
  emscripten::function("fx_resident_count", &fx::fx_resident_count);
  emscripten::function("fx_wire_dtypes", &fx::fx_wire_dtypes);
  emscripten::function("fx_scratch", &fx::fx_scratch);
  emscripten::function("fx_alloc_input", &fx::fx_alloc_input);
  emscripten::function("fx_reference", &fx::fx_reference);
  emscripten::function("fx_check", &fx::fx_check);
  emscripten::function("fx_save", &fx::fx_save);
  emscripten::function("fx_release", &fx::fx_release);
  emscripten::function("fx_dispose", &fx::fx_dispose);
  emscripten::function("fx_supported_ops", &fx::fx_supported_ops);
  emscripten::function("fx_memory", &fx::fx_memory);
  emscripten::function("fx_run_memory", &fx::fx_run_memory);
}
