// torch.einsum: the equation is parsed (explicit "->" or implicit output, "..." for broadcast dims),
// operands are contracted left to right, each pair permuted and reshaped into one batched matmul
// ([batch, M, K] @ [batch, K, N]); labels no later term needs are summed out first. A label repeated
// within one operand takes its diagonal first.
#include <algorithm>
#include <map>

#include "ops/array/view_util.h"
#include "ops/math/matmul.h"
#include "ops/nn/nn_util.h"
#include "ops/registry.h"
#include "ops/schema.h"
#include "ops/tensor_util.h"
#include "support/error.h"
#include "tensor/broadcast.h"

namespace fx {
namespace {

using Labels = std::vector<char>;  // '.' stands for the ellipsis dims, expanded per operand to '0'..'9'

struct Term {
  Tensor t;
  Labels labels;
};

Tensor sum_dims(const Tensor& t, const std::vector<int64_t>& dims) {
  if (dims.empty()) return t;
  std::vector<Object> ds;
  for (int64_t d : dims) ds.push_back(Object(Value::integer(d)));
  return OpRegistry::global().call("torch.sum", {t, Object::list(ds)}).tensor();
}

// Sums labels of `x` that are not in `keep`.
Term reduce_unneeded(Term x, const Labels& keep) {
  std::vector<int64_t> dims;
  Labels rest;
  for (size_t i = 0; i < x.labels.size(); ++i) {
    if (std::find(keep.begin(), keep.end(), x.labels[i]) == keep.end()) dims.push_back(static_cast<int64_t>(i));
    else rest.push_back(x.labels[i]);
  }
  return {sum_dims(x.t, dims), rest};
}

Tensor permute_labels(const Term& x, const Labels& order) {
  std::vector<int64_t> perm;
  for (char c : order) perm.push_back(std::find(x.labels.begin(), x.labels.end(), c) - x.labels.begin());
  return permute_view(x.t, perm);
}

int64_t size_of(const Term& x, char c) {
  return x.t.shape()[std::find(x.labels.begin(), x.labels.end(), c) - x.labels.begin()];
}

Term contract(Term a, Term b, const Labels& keep) {
  Labels keep_a = keep, keep_b = keep;
  keep_a.insert(keep_a.end(), b.labels.begin(), b.labels.end());
  keep_b.insert(keep_b.end(), a.labels.begin(), a.labels.end());
  a = reduce_unneeded(a, keep_a);
  b = reduce_unneeded(b, keep_b);
  Labels batch, only_a, only_b, contracted;
  auto in = [](const Labels& l, char c) { return std::find(l.begin(), l.end(), c) != l.end(); };
  for (char c : a.labels) {
    if (in(b.labels, c)) (in(keep, c) ? batch : contracted).push_back(c);
    else only_a.push_back(c);
  }
  for (char c : b.labels)
    if (!in(a.labels, c)) only_b.push_back(c);
  auto prod = [](const Term& x, const Labels& ls) {
    int64_t p = 1;
    for (char c : ls) p *= size_of(x, c);
    return p;
  };
  Labels oa = batch, ob = batch;
  oa.insert(oa.end(), only_a.begin(), only_a.end());
  oa.insert(oa.end(), contracted.begin(), contracted.end());
  ob.insert(ob.end(), contracted.begin(), contracted.end());
  ob.insert(ob.end(), only_b.begin(), only_b.end());
  Shape batch_shape;
  for (char c : batch) batch_shape.push_back(std::max(size_of(a, c), size_of(b, c)));
  // Broadcast batch dims of size 1 (from "...") by expanding before the reshape.
  Tensor pa = permute_labels(a, oa), pb = permute_labels(b, ob);
  Shape ea = batch_shape, eb = batch_shape;
  for (size_t i = batch.size(); i < oa.size(); ++i) ea.push_back(pa.shape()[i]);
  for (size_t i = batch.size(); i < ob.size(); ++i) eb.push_back(pb.shape()[i]);
  pa = expand_to(pa, ea).contiguous();
  pb = expand_to(pb, eb).contiguous();
  int64_t nb = 1;
  for (int64_t d : batch_shape) nb *= d;
  const int64_t M = prod(a, only_a), K = prod(a, contracted), N = prod(b, only_b);
  Tensor r = matmul_tensor(view_as_shape(pa, {nb, M, K}), view_as_shape(pb, {nb, K, N}));
  Shape shape = batch_shape;
  for (char c : only_a) shape.push_back(size_of(a, c));
  for (char c : only_b) shape.push_back(size_of(b, c));
  Labels labels = batch;
  labels.insert(labels.end(), only_a.begin(), only_a.end());
  labels.insert(labels.end(), only_b.begin(), only_b.end());
  return {view_as_shape(r, shape), labels};
}

// A label repeated within one operand ("ii->i") selects the diagonal: a view with one dim for the label,
// whose stride is the sum of the repeated dims' strides.
Term take_diagonals(Term x) {
  Shape shape, strides;
  Labels labels;
  for (size_t i = 0; i < x.labels.size(); ++i) {
    const auto at = std::find(labels.begin(), labels.end(), x.labels[i]);
    if (at == labels.end()) {
      labels.push_back(x.labels[i]);
      shape.push_back(x.t.shape()[i]);
      strides.push_back(x.t.strides()[i]);
      continue;
    }
    const size_t k = static_cast<size_t>(at - labels.begin());
    if (shape[k] != x.t.shape()[i])
      throw FxError(std::string("einsum(): subscript ") + x.labels[i] + " is repeated for operand but the sizes don't "
                    "match, " + std::to_string(shape[k]) + " != " + std::to_string(x.t.shape()[i]));
    strides[k] += x.t.strides()[i];
  }
  if (labels.size() == x.labels.size()) return x;
  return {make_view(x.t, shape, strides, x.t.offset()), labels};
}

// Parses one term, expanding "..." to the operand's leftover dims labelled '0', '1', ... (right-aligned).
Labels parse_term(const std::string& s, int64_t ndim, int64_t& ell_dims) {
  Labels out;
  const size_t ell = s.find("...");
  std::string body = s;
  if (ell != std::string::npos) body.erase(ell, 3);
  for (char c : body)
    if (!std::isalpha(static_cast<unsigned char>(c)))
      throw FxError(std::string("einsum(): invalid subscript given in the equation string: '") + c + "'");
  const int64_t named = static_cast<int64_t>(body.size());
  if (ell == std::string::npos) {
    if (ndim >= 0 && named != ndim)
      throw FxError("einsum(): the number of subscripts in the equation (" + std::to_string(named) +
                    ") does not match the number of dimensions (" + std::to_string(ndim) + ")");
    return Labels(body.begin(), body.end());
  }
  const int64_t e = ndim >= 0 ? ndim - named : ell_dims;
  if (e < 0) throw FxError("einsum(): the number of subscripts in the equation does not match the number of dimensions");
  ell_dims = std::max(ell_dims, e);
  for (size_t i = 0; i < ell; ++i) out.push_back(s[i]);
  for (int64_t i = 0; i < e; ++i) out.push_back(static_cast<char>('0' + (ell_dims - e + i)));
  for (size_t i = ell + 3; i < s.size(); ++i) out.push_back(s[i]);
  return out;
}

Object einsum_op(const OpCall& call) {
  if (call.args.empty() || !call.args[0].is_value()) throw FxError("einsum(): expected an equation string");
  std::string eq;
  for (char c : call.args[0].value().as_str())
    if (c != ' ') eq += c;
  std::vector<Tensor> ops;
  if (call.args.size() == 2 && call.args[1].is_sequence())
    for (const Object& o : call.args[1].items()) ops.push_back(o.tensor());
  else
    for (size_t i = 1; i < call.args.size(); ++i) ops.push_back(call.args[i].tensor());
  const size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != ops.size())
    throw FxError("einsum(): more operands were provided than specified in the equation");
  int64_t ell_dims = 0;
  std::vector<Term> xs;
  std::map<char, int> count;
  for (size_t i = 0; i < ops.size(); ++i) {
    Labels l = parse_term(terms[i], ops[i].dim(), ell_dims);
    for (char c : l) ++count[c];
    xs.push_back(take_diagonals({ops[i], l}));
  }
  Labels out;
  if (arrow != std::string::npos) {
    out = parse_term(eq.substr(arrow + 2), -1, ell_dims);
  } else {  // implicit: ellipsis dims, then labels seen once, alphabetically
    for (int64_t i = 0; i < ell_dims; ++i) out.push_back(static_cast<char>('0' + i));
    for (const auto& [c, n] : count)
      if (n == 1 && std::isalpha(static_cast<unsigned char>(c))) out.push_back(c);
  }
  Term acc = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) {
    Labels keep = out;
    for (size_t j = i + 1; j < xs.size(); ++j) keep.insert(keep.end(), xs[j].labels.begin(), xs[j].labels.end());
    acc = contract(acc, xs[i], keep);
  }
  acc = reduce_unneeded(acc, out);
  for (char c : out)
    if (std::find(acc.labels.begin(), acc.labels.end(), c) == acc.labels.end())
      throw FxError(std::string("einsum(): output subscript ") + c + " does not appear in the equation for any input operand");
  return permute_labels(acc, out).contiguous();
}

const OpRegistrar reg_einsum{OpDef{"torch.einsum", {"torch.functional.einsum", "aten.einsum.default"}, {}, einsum_op}};

}  // namespace
}  // namespace fx
