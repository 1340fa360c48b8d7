// read_fxw's validation: each malformed input gives an FxError saying what and where.
#include "serialize/reader.h"

#include <gtest/gtest.h>

#include "fxw_files.h"

namespace fx {
namespace {

using namespace testing_fxw;

std::vector<uint8_t> f32_bytes(std::vector<float> v) {
  std::vector<uint8_t> out(v.size() * 4);
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

#define EXPECT_ERROR(bytes, text)                                                      \
  do {                                                                                \
    const std::string err_ = read_error(bytes);                                       \
    EXPECT_NE(err_.find(text), std::string::npos) << "error was: '" << err_ << "'"; \
  } while (0)

TEST(Reader, ReadsASmallProgram) {
  auto bytes = file_for(small_program());
  auto gm = read_fxw(bytes.data(), bytes.size());
  auto nodes = gm->graph().nodes();
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[1]->target(), "torch.relu");
  EXPECT_EQ(nodes[1]->args()[0].as_node(), nodes[0]);
  EXPECT_EQ(nodes[0]->users(), std::vector<Node*>{nodes[1]});
  EXPECT_EQ(gm->producer().tracer, "graph");
  EXPECT_EQ(gm->modules().at("").type, "torch.nn.modules.module.Module");
  EXPECT_FALSE(gm->reference().present);
}

TEST(Reader, ReadsUnalignedTensorsOfEveryOffset) {
  Json p = small_program();
  p["tensors"] = {{"w", "parameter"}, {"b", "buffer"}};
  // 3 junk bytes first: w starts at an odd offset (readers accept any alignment)
  std::vector<uint8_t> data = {9, 9, 9};
  auto w = f32_bytes({1.5f, -2.0f});
  data.insert(data.end(), w.begin(), w.end());
  data.push_back(1);
  Json tensors = {{"w", {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {3, 11}}}},
                  {"b", {{"dtype", "BOOL"}, {"shape", Json::array()}, {"data_offsets", {11, 12}}}},
                  {"__pad__.0", {{"dtype", "U8"}, {"shape", {3}}, {"data_offsets", {0, 3}}}}};
  auto bytes = file_for(p, tensors, data);
  for (size_t shift = 0; shift < 4; ++shift) {  // and at any address of the caller's buffer
    std::vector<uint8_t> buf(shift, 0);
    buf.insert(buf.end(), bytes.begin(), bytes.end());
    auto gm = read_fxw(buf.data() + shift, bytes.size());
    ASSERT_EQ(gm->tensors().size(), 2u);  // the pad tensor is ignored
    const Tensor& t = gm->tensors().at("w").tensor;
    EXPECT_EQ(t.shape(), (Shape{2}));
    EXPECT_EQ(t.data<float>()[0], 1.5f);
    EXPECT_EQ(t.data<float>()[1], -2.0f);
    EXPECT_EQ(gm->tensors().at("w").kind, TensorKind::Parameter);
    EXPECT_EQ(gm->tensors().at("b").kind, TensorKind::Buffer);
    EXPECT_EQ(gm->tensors().at("b").tensor.dim(), 0);
  }
}

TEST(Reader, RejectsBrokenContainers) {
  EXPECT_ERROR(std::vector<uint8_t>{}, "fxwasm file: too short (0 bytes)");
  EXPECT_ERROR(std::vector<uint8_t>(5, 0), "too short (5 bytes)");
  std::vector<uint8_t> lying(120, ' ');
  const uint64_t n = 9999999;
  for (int i = 0; i < 8; ++i) lying[i] = static_cast<uint8_t>(n >> (8 * i));
  EXPECT_ERROR(lying, "fxwasm file: header length 9999999 exceeds file size 120");
  std::vector<uint8_t> huge(8, 0xff);
  EXPECT_ERROR(huge, "exceeds file size 8");
  EXPECT_ERROR(raw_file("{\"__metadata__\": "), "header is not valid JSON");
  EXPECT_ERROR(raw_file("[1]"), "header must be a JSON object");
  EXPECT_ERROR(raw_file("{}"), "no __metadata__");
  EXPECT_ERROR(raw_file(R"({"__metadata__": {"format": "pt", "format_version": "1", "program": "{}"}})"),
               "format is 'pt'");
  EXPECT_ERROR(raw_file(R"({"__metadata__": {"format": "fxwasm", "format_version": "2", "program": "{}"}})"),
               "format_version '2' is not supported");
  EXPECT_ERROR(raw_file(R"({"__metadata__": {"format": "fxwasm", "format_version": "1"}})"),
               "__metadata__.program is missing");
  // a depth bomb is refused before any parser sees it
  EXPECT_ERROR(raw_file(std::string(100000, '[') + std::string(100000, ']')), "JSON nests 100000 levels deep");
  Json deep = small_program();
  std::string bomb = std::string(65, '[') + std::string(65, ']');
  std::string program_text = deep.dump();
  program_text.insert(program_text.size() - 1, ",\"x\":" + bomb);
  Json h = Json::object();
  h["__metadata__"] = {{"format", "fxwasm"}, {"format_version", "1"}, {"program", program_text}};
  EXPECT_ERROR(raw_file(h.dump()), "fxwasm file: program: JSON nests 66 levels deep; the limit is 64");
  h["__metadata__"]["program"] = "{\"nodes\": [";
  EXPECT_ERROR(raw_file(h.dump()), "program is not valid JSON");
}

TEST(Reader, RejectsBadTensorEntries) {
  Json p = small_program();
  p["tensors"] = {{"w", "parameter"}};
  auto with = [&](Json entry, size_t data_size = 8) {
    return file_for(p, Json{{"w", entry}}, std::vector<uint8_t>(data_size, 0));
  };
  EXPECT_ERROR(with({{"dtype", "F128"}, {"shape", {2}}, {"data_offsets", {0, 8}}}), "tensor 'w': unknown dtype 'F128'");
  EXPECT_ERROR(with({{"shape", {2}}, {"data_offsets", {0, 8}}}), "tensor 'w': missing 'dtype'");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", Json::array({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})},
                     {"data_offsets", {0, 4}}}),
               "rank 17 exceeds the limit of 16");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {-2}}, {"data_offsets", {0, 8}}}), "non-negative");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {4294967296ll, 4294967296ll}}, {"data_offsets", {0, 8}}}),
               "overflows");
  EXPECT_ERROR(with({{"dtype", "F64"}, {"shape", {1ll << 61}}, {"data_offsets", {0, 8}}}), "overflows");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {4}}, {"data_offsets", {0, 16}}}),
               "tensor 'w': data_offsets [0, 16] run past the data section (8 bytes)");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {3}}, {"data_offsets", {0, 8}}}),
               "hold 8 bytes but dtype F32 with shape of 3 elements needs 12");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {8, 0}}}), "end before they begin");
  EXPECT_ERROR(with({{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0}}}), "[begin, end]");
  // kinds and listing
  Json entry = {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 8}}};
  p["tensors"] = Json::object();
  EXPECT_ERROR(with(entry), "tensor 'w' of the header is not listed in program.tensors");
  p["tensors"] = {{"w", "parameter"}, {"v", "buffer"}};
  EXPECT_ERROR(with(entry), "program.tensors lists 'v', which is not in the header");
  p["tensors"] = {{"w", "weights"}};
  EXPECT_ERROR(with(entry), "is 'weights'; expected parameter, buffer, constant, reference or quant_scale");
  p["tensors"] = {{"w", "parameter"}};
  const std::string long_name(70000, 'n');
  p["tensors"] = {{long_name, "parameter"}};
  EXPECT_ERROR(file_for(p, Json{{long_name, entry}}, std::vector<uint8_t>(8, 0)), "65536-byte limit");
}

TEST(Reader, RejectsBadNodes) {
  auto with_nodes = [](Json nodes) {
    Json p = small_program();
    p["nodes"] = std::move(nodes);
    return file_for(p);
  };
  const Json x = node("placeholder", "x", "x");
  const Json out = node("output", "output", "output", {ref("add")});
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {ref("x"), ref("foo")}), out}),
               "node 'add': args refer to unknown node 'foo'");
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {ref("x")}, {{"alpha", ref("foo")}}), out}),
               "node 'add': kwargs refer to unknown node 'foo'");
  // forward reference and a cycle
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {ref("x"), ref("y")}),
                           node("call_function", "y", "torch.abs", {ref("add")}), out}),
               "node 'add': refers to node 'y' before it is defined");
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {ref("add")}), out}),
               "node 'add': refers to itself");
  EXPECT_ERROR(with_nodes({x, node("call_function", "x", "torch.abs", {ref("x")}), out}), "node 'x': duplicate node name");
  // names FX would rename (which a crafted file could use to make the namer search quadratically)
  EXPECT_ERROR(with_nodes({x, node("call_function", "a?1", "torch.abs", {ref("x")}), out}),
               "node 'a?1': program.nodes[1].name 'a?1' is not a name FX would give a node");
  EXPECT_ERROR(with_nodes({x, node("call_function", "sum", "torch.abs", {ref("x")}), out}),
               "'sum' is not a name FX would give a node");
  EXPECT_ERROR(with_nodes({x, node("call_function", "1add", "torch.abs", {ref("x")}), out}),
               "'1add' is not a name FX would give a node");
  EXPECT_ERROR(with_nodes({x, node("call_fn", "add", "operator.add", {ref("x")}), out}),
               "node 'add': unknown op 'call_fn'");
  EXPECT_ERROR(with_nodes({x, node("get_attr", "w", "layer.weight"), out}),
               "node 'w': get_attr target 'layer.weight' names no tensor or module");
  EXPECT_ERROR(with_nodes({x, node("call_module", "conv", "conv", {ref("x")}), out}),
               "node 'conv': call_module target 'conv' is not in program.modules");
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {ref("x"), 1}),
                           node("output", "output", "output", {ref("add"), ref("add")})}),
               "node 'output': output takes exactly one argument");
  EXPECT_ERROR(with_nodes({x, node("output", "output", "output", {ref("x")}),
                           node("call_function", "add", "operator.add", {ref("x"), 1})}),
               "the output must be last");
  EXPECT_ERROR(with_nodes({x, Json{{"op", "call_function"}, {"target", "f"}}}), "program.nodes[1].name is missing");
  EXPECT_ERROR(with_nodes({x, node("call_function", "", "f")}), "program.nodes[1].name is empty");
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", std::string(70000, 't'), {ref("x")}), out}),
               "65536-byte limit");
  EXPECT_ERROR(with_nodes({x, node("call_function", "add", "operator.add", {Json{{"$dtype", "float99"}}}), out}),
               "node 'add': args: unknown dtype 'float99'");
  Json bad_args = node("call_function", "add", "operator.add");
  bad_args["args"] = Json::object();
  EXPECT_ERROR(with_nodes({x, bad_args, out}), "node 'add': args must be a JSON array");
  Json p = small_program();
  p.erase("nodes");
  EXPECT_ERROR(file_for(p), "program.nodes is missing or not an array");
}

TEST(Reader, RejectsTooManyNodes) {
  Json p = small_program();
  Json nodes = Json::array();
  for (size_t i = 0; i < 1000001; ++i) nodes.push_back(0);
  p["nodes"] = std::move(nodes);
  EXPECT_ERROR(file_for(p), "program has 1000001 nodes; the limit is 1000000");
}

TEST(Reader, ValidatesModulesAndReference) {
  Json p = small_program();
  p["modules"] = {{"conv", {{"hparams", Json::object()}}}};
  EXPECT_ERROR(file_for(p), "program.modules['conv'].type is missing");
  p["modules"] = {{"conv", {{"type", "torch.nn.Conv2d"}, {"hparams", {{"k", ref("x")}}}}}};
  EXPECT_ERROR(file_for(p), "hparams: node references are not allowed here");

  p = small_program();
  p["tensors"] = {{"__ref__.in.0", "reference"}};
  Json tensors = {{"__ref__.in.0", {{"dtype", "F32"}, {"shape", {1}}, {"data_offsets", {0, 4}}}}};
  std::vector<uint8_t> data = f32_bytes({3.0f});
  p["reference"] = {{"inputs", Json::array()}, {"outputs", nullptr}};
  EXPECT_ERROR(file_for(p, tensors, data), "program.reference has 0 inputs but the graph has 1 placeholders");
  p["reference"] = {{"inputs", {{{"$tensor", "__ref__.in.7"}}}}, {"outputs", nullptr}};
  EXPECT_ERROR(file_for(p, tensors, data), "$tensor '__ref__.in.7' is not a reference tensor");
  p["reference"] = {{"inputs", {{{"$tensor", "__ref__.in.0"}}}},
                    {"outputs", {{"$tuple", {{{"$tensor", "__ref__.in.0"}}, 2.5, {{"$node", "x"}}}}}}};
  EXPECT_ERROR(file_for(p, tensors, data), "reference.outputs: node references are not allowed");
  p["reference"]["outputs"] = {{"$tuple", {{{"$tensor", "__ref__.in.0"}}, 2.5, true}}};
  auto bytes = file_for(p, tensors, data);
  auto gm = read_fxw(bytes.data(), bytes.size());
  ASSERT_TRUE(gm->reference().present);
  EXPECT_TRUE(gm->tensors().empty());  // reference tensors are not the module's
  ASSERT_EQ(gm->reference().inputs.size(), 1u);
  EXPECT_EQ(gm->reference().inputs[0].tensor().data<float>()[0], 3.0f);
  const Object& outs = gm->reference().outputs;
  ASSERT_EQ(outs.items().size(), 3u);
  EXPECT_EQ(outs.items()[1].value(), Value::floating(2.5));
  EXPECT_EQ(outs.items()[2].value(), Value::boolean(true));
}

}  // namespace
}  // namespace fx

namespace fx {
namespace {

// Truncated and corrupted files give an FxError, never another exception or a crash (run under ASan too).
TEST(Reader, SurvivesTruncationAndCorruption) {
  using namespace testing_fxw;
  Json p = small_program();
  p["tensors"] = {{"w", "parameter"}, {"__ref__.in.0", "reference"}};
  p["reference"] = {{"inputs", {{{"$tensor", "__ref__.in.0"}}}}, {"outputs", {{"$tuple", {1.5, nullptr}}}}};
  p["nodes"][1]["kwargs"] = {{"s", {{"$slice", {1, nullptr, {{"$float", "inf"}}}}}}, {"d", {{"$dtype", "int8"}}}};
  Json tensors = {{"w", {{"dtype", "F32"}, {"shape", {2}}, {"data_offsets", {0, 8}}}},
                  {"__ref__.in.0", {{"dtype", "I64"}, {"shape", {1}}, {"data_offsets", {8, 16}}}}};
  const std::vector<uint8_t> good = file_for(p, tensors, std::vector<uint8_t>(16, 1));
  ASSERT_EQ(read_error(good), "");
  auto outcome = [](const std::vector<uint8_t>& bytes) {
    try {
      read_fxw(bytes.data(), bytes.size());
    } catch (const FxError&) {
      return 1;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "non-FxError exception: " << e.what();
      return 2;
    }
    return 0;
  };
  for (size_t len = 0; len < good.size(); ++len) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + len);
    EXPECT_EQ(outcome(cut), 1) << "truncated to " << len;
  }
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  const std::string specials = "{}[]\":,\\0123456789-e.$ntf";
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> bad = good;
    const int flips = 1 + next() % 3;
    for (int k = 0; k < flips; ++k) {
      const size_t at = next() % bad.size();
      bad[at] = (next() % 2) ? static_cast<uint8_t>(next()) : static_cast<uint8_t>(specials[next() % specials.size()]);
    }
    EXPECT_LE(outcome(bad), 1);
  }
}

}  // namespace
}  // namespace fx
