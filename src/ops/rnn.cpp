// Recurrent layers and cells by their ATen operators, with FlagGems' inputs: nn.LSTM / nn.RNN
// weights (U(-1 / sqrt(H), 1 / sqrt(H)), as the modules initialise them), N(0, 1) inputs and
// states; the fused LSTM cell's gates (ops/dismiss.yaml: a CUDA kernel only).
#include <ATen/ops/_thnn_fused_lstm_cell.h>
#include <ATen/ops/_thnn_fused_lstm_cell_backward_impl.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/lstm.h>
#include <ATen/ops/rnn_relu.h>
#include <ATen/ops/zeros.h>

#include <cmath>

#include "ops/builders.h"
#include "ops/derived_families.h"

namespace caliber {
namespace {

OpDef recurrent(const char* name, const char* key, const char* desc, BuildFn inputs, CallFn call) {
  return OpDef(name)
      .family(Family::kBlas)
      .shape_key(key)
      .shape_desc(desc)
      .inputs(std::move(inputs))
      .call(std::move(call))
      .tolerance(4);
}

// w_ih [gates * H, I], w_hh [gates * H, H], b_ih, b_hh [gates * H] per layer and direction.
void push_weights(const BuildContext& c, Args& a, int64_t gates, int64_t input, int64_t hidden,
                  int64_t layers, int64_t directions) {
  const double k = 1.0 / std::sqrt(static_cast<double>(hidden));
  auto uniform = [&](std::vector<int64_t> sizes) {
    return at::empty(sizes, c.options()).uniform_(-k, k);
  };
  for (int64_t layer = 0; layer < layers; ++layer) {
    for (int64_t d = 0; d < directions; ++d) {
      const int64_t in = layer == 0 ? input : hidden * directions;
      a.t.push_back(uniform({gates * hidden, in}));
      a.t.push_back(uniform({gates * hidden, hidden}));
      a.t.push_back(uniform({gates * hidden}));
      a.t.push_back(uniform({gates * hidden}));
    }
  }
}

std::vector<at::Tensor> from(const Args& a, size_t first) {
  return std::vector<at::Tensor>(a.t.begin() + static_cast<std::ptrdiff_t>(first), a.t.end());
}

}  // namespace

std::vector<OpDef> rnn_ops() {
  using A = Args;
  std::vector<OpDef> ops = {
      // lstm(x [B, T, I], (h0, c0), weights, biases, layers, 0.0, eval, bidirectional,
      // batch_first): FlagGems' (B, T, I, H, layers, bidirectional).
      recurrent(
          "lstm", "LSTMBenchmark", "B, T, I, H, num_layers, bidirectional",
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            const int64_t directions = d[5] != 0 ? 2 : 1;
            a.t = {ops::random(c, {d[0], d[1], d[2]}),
                   ops::random(c, {d[4] * directions, d[0], d[3]}),
                   ops::random(c, {d[4] * directions, d[0], d[3]})};
            push_weights(c, a, 4, d[2], d[3], d[4], directions);
            a.i = {d[4], d[5]};
          },
          [](A& a) {
            return std::get<0>(at::lstm(a.t[0], {a.t[1], a.t[2]}, from(a, 3), true, a.i[0], 0.0,
                                        false, a.i[1] != 0, true));
          })
          .aten({"aten::lstm.input"}),
      // rnn_relu(x [T, B, I], h0 [1, B, I], weights, biases, 1 layer, 0.0, eval, one direction,
      // sequence first): FlagGems' (T, B, I), H = I.
      recurrent(
          "rnn_relu", "RnnReluBenchmark", "T, B, I",
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], d[1], d[2]}), ops::random(c, {1, d[1], d[2]})};
            push_weights(c, a, 1, d[2], d[2], 1, 1);
          },
          [](A& a) {
            return std::get<0>(
                at::rnn_relu(a.t[0], a.t[1], from(a, 2), true, 1, 0.0, false, false, false));
          })
          .aten({"aten::rnn_relu.input"}),
      // _thnn_fused_lstm_cell(input gates [B, 4H], hidden gates [B, 4H], cx [B, H]).
      recurrent(
          "thnn_fused_lstm_cell", "LSTMCellBenchmark", "B, H",
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            a.t = {ops::random(c, {d[0], 4 * d[1]}), ops::random(c, {d[0], 4 * d[1]}),
                   ops::random(c, {d[0], d[1]})};
          },
          [](A& a) { return std::get<0>(at::_thnn_fused_lstm_cell(a.t[0], a.t[1], a.t[2])); })
          .aten({"aten::_thnn_fused_lstm_cell"}),
      // _thnn_fused_lstm_cell_backward_impl(grad_hy, grad_cy, cx, cy, workspace, True) of the
      // cell with a zero input bias and an N(0, 1) hidden bias, float32.
      recurrent(
          "thnn_fused_lstm_cell_backward_impl", "LSTMCellBackwardBenchmark", "B, H",
          [](const BuildContext& c, A& a) {
            auto d = c.dims();
            at::Tensor cx = ops::random(c, {d[0], d[1]});
            auto [hy, cy, workspace] = at::_thnn_fused_lstm_cell(
                ops::random(c, {d[0], 4 * d[1]}), ops::random(c, {d[0], 4 * d[1]}), cx,
                at::zeros({4 * d[1]}, c.options()), ops::random(c, {4 * d[1]}));
            a.t = {ops::random(c, hy.sizes()), ops::random(c, cy.sizes()), cx, cy, workspace};
          },
          [](A& a) {
            return std::get<0>(at::_thnn_fused_lstm_cell_backward_impl(a.t[0], a.t[1], a.t[2],
                                                                       a.t[3], a.t[4], true));
          })
          .dtypes({DType::kFloat32})
          .aten({"aten::_thnn_fused_lstm_cell_backward_impl"}),
  };
  return ops;
}

}  // namespace caliber
