# %% [markdown] lang="ko"
# # 9강 실습: 트랜스포머가 기반이 된 이유와 그 비용
#
# 이 노트북은 강좌 패키지의 어텐션 함수와 생성 루프를 그대로 가져와 $L^2$ 비용을 직접 재 보고,
# 그 비용으로 얻는 것을 강의의 첫 칸 실험으로 확인합니다. 목표는 다섯 가지입니다.
#
# 1. 길이가 2배일 때 $L \times L$ 점수 행렬의 칸 수와 메모리가 4배가 되는 것을 계산으로 확인합니다.
# 2. 길이를 늘려 가며 어텐션 한 번의 시간과 가중치 행렬의 크기를 재고, 2배 길이에서 몇 배가 되는지 봅니다.
# 3. KV 캐시가 무엇을 저장하는지 들여다봅니다.
# 4. 캐시를 쓴 생성과 쓰지 않은 생성이 같은 토큰을 내는지, 얼마나 빠른지 잽니다.
# 5. 첫 칸 실험을 작게 돌려, 시퀀스 맨 앞의 정보를 LSTM과 트랜스포머 중 누가 끝까지 기억하는지 봅니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요. 시간은 기계마다 다르므로
# 강의의 숫자와 같지 않아도 됩니다. 비교할 것은 모양(몇 배로 늘어나는지)입니다.

# %% [markdown] lang="en"
# # Lesson 9 lab: Why it became the foundation, and what it costs
#
# This notebook takes the course package's attention function and generation loop as they are and
# measures the $L^2$ cost itself, then checks what that cost buys with the lesson's first-cell
# experiment. Five goals:
#
# 1. Compute that twice the length gives four times the entries and memory of the $L \times L$
#    score matrix.
# 2. Time one attention call and size its weight matrix at growing lengths, and see the factor
#    for twice the length.
# 3. Look inside the KV cache to see what it stores.
# 4. Check that generating with and without the cache gives the same tokens, and time both.
# 5. Run the first-cell experiment small and see which of an LSTM and a Transformer remembers the
#    front of a sequence to the end.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom. Times differ from
# machine to machine, so they need not match the lesson's; what to compare is their shape (by
# what factor they grow).

# %%
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from matplotlib.ticker import FuncFormatter
from torch import Tensor, nn

torch.manual_seed(0)
torch.set_num_threads(1)  # ko: 강의의 측정처럼 스레드 하나로 잽니다 # en: one thread, as in the lesson's measurements
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 손으로 풀어 보기: $L^2$
#
# 길이 $L$인 시퀀스에서 점수 행렬은 $L \times L$입니다. 칸 하나를 float32(4바이트)로 저장할 때, 헤드
# 하나, 층 하나의 가중치 행렬 크기를 길이를 두 배씩 늘려 가며 계산합니다. 강의의 $L^2$ 표와 비교해
# 보세요.

# %% [markdown] lang="en"
# ## Worked example: $L^2$
#
# For a sequence of length $L$ the score matrix is $L \times L$. Storing each entry as float32 (4
# bytes), compute the size of one head's weight matrix in one layer while doubling the length.
# Compare with the lesson's $L^2$ table.

# %%
MIB = 2**20
previous = None
for L in (4096, 8192, 16384, 32768):
    entries = L * L
    ratio = f"×{entries / previous:.0f}" if previous else "–"
    print(f"L = {L:6,}   L² = {entries:13,}   {entries * 4 / MIB:8,.0f} MiB   vs previous row {ratio}")
    previous = entries

# %% [markdown] lang="ko"
# ## 패키지의 어텐션 함수
#
# 아래 두 함수는 강좌 패키지 `tutorial_code/attention.py`의 함수와 한 글자도 다르지 않습니다.
# 3강의 함수로, $L \times L$ 점수와 가중치 행렬을 실제로 만들고 가중치를 돌려줍니다.

# %% [markdown] lang="en"
# ## The package's attention function
#
# The two functions below are those of the course package, `tutorial_code/attention.py`, word
# for word. It is lesson 3's function: it really builds the $L \times L$ scores
# and weights, and returns the weights.

# %%
# [[code:attention.scaled_dot_product_attention]]

# %% [markdown] lang="ko"
# ## L²의 비용을 재 보기
#
# 강의와 같이 헤드 $h$ = 4, $d_k$ = 64인 어텐션 한 번을 길이 128부터 4096까지 잽니다. 강의 코드와
# PyTorch의 융합 커널 `F.scaled_dot_product_attention`을 나란히 놓습니다. 시간은 `time.perf_counter`로
# 잽니다. 모든 길이와 구현을 한 번씩 재는 라운드를 다섯 번 돌리고, 다섯 값의 중앙값을 씁니다. 같은
# 기계에서 다른 프로그램이 끼어들어 유난히 느리거나 빠른 라운드가 한두 번 있어도 중앙값은 거의 흔들리지
# 않습니다. 짧은 길이는 여러 번 불러 평균을 냅니다. 메모리는 측정이 아니라 계산입니다. 강의 코드가
# 돌려준 가중치 텐서의 `numel() × element_size()`가 식 $h \cdot L^2 \cdot 4$바이트와 같은지 봅니다.
# 융합 커널은 이 행렬을 통째로 저장하지 않습니다. 이 셀은 몇 초 걸립니다.

# %% [markdown] lang="en"
# ## Measuring the L² cost
#
# As in the lesson, time one attention call with $h$ = 4 heads and $d_k$ = 64, at lengths from 128
# to 4096, for the course code and PyTorch's fused kernel `F.scaled_dot_product_attention` side by
# side, timed with `time.perf_counter`. Five rounds each time every length and implementation once,
# and the median of the five is kept: a round or two that other programs on the same machine made
# unusually slow or fast hardly moves it. Short lengths are averaged over many calls. Memory is
# computed, not measured: we check that the weight tensor the course code returns takes
# `numel() × element_size()` bytes, the formula $h \cdot L^2 \cdot 4$. The fused kernel never
# stores this matrix whole. This cell takes a few seconds.


# %%
def median_seconds(fns: dict, calls: dict, rounds: int = 5) -> dict:
    # ko: 라운드마다 fns의 함수를 하나씩 calls번 불러 재고, 함수마다 한 번 호출당 초의 중앙값을 돌려줍니다
    # en: each round times every function of fns over its number of calls; returns each one's median seconds per call
    times = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.perf_counter()
            for _ in range(calls[name]):
                fn()
            times[name].append((time.perf_counter() - start) / calls[name])
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


h, d_k = 4, 64
lengths = [128, 256, 512, 1024, 2048, 4096]
inputs = {L: [torch.randn(1, h, L, d_k) for _ in range(3)] for L in lengths}  # ko: q, k, v: (B, h, L, d_k) # en: q, k, v: (B, h, L, d_k)
fns, calls = {}, {}
for L, (q, k, v) in inputs.items():
    fns["course", L] = lambda q=q, k=k, v=v: scaled_dot_product_attention(q, k, v)
    fns["fused", L] = lambda q=q, k=k, v=v: F.scaled_dot_product_attention(q, k, v)
    calls["course", L] = calls["fused", L] = max(1, (2048 // L) ** 2)  # ko: 짧을수록 여러 번 # en: the shorter, the more calls
with torch.no_grad():
    secs = median_seconds(fns, calls)
ours = [secs["course", L] for L in lengths]
fused = [secs["fused", L] for L in lengths]

print("     L   course (ms)   fused (ms)   ×prev course   ×prev fused   weights (MiB)   h·L²·4 (MiB)")
for i, (L, (q, k, v)) in enumerate(inputs.items()):
    with torch.no_grad():
        _, weights = scaled_dot_product_attention(q, k, v)
    size = weights.numel() * weights.element_size() / MIB
    prev = f"{ours[i] / ours[i - 1]:12.1f}   {fused[i] / fused[i - 1]:11.1f}" if i else f"{'–':>12}   {'–':>11}"
    print(f"{L:6d}   {1e3 * ours[i]:11.2f}   {1e3 * fused[i]:10.2f}   {prev}"
          f"   {size:13.1f}   {h * L * L * 4 / MIB:12.1f}")
slope = math.log(ours[-1] / ours[-2]) / math.log(lengths[-1] / lengths[-2])
print(f"log-log slope of the course code between L = {lengths[-2]} and {lengths[-1]}: {slope:.2f}")

fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(lengths, ours, "o-", label="강의 코드 (L×L 행렬 생성)")  # ko
ax.plot(lengths, ours, "o-", label="course code (materialised L×L)")  # en
ax.plot(lengths, fused, "s-", label="융합 커널 (PyTorch)")  # ko
ax.plot(lengths, fused, "s-", label="fused kernel (PyTorch)")  # en
ax.plot(lengths, [ours[-1] * (L / lengths[-1]) ** 2 for L in lengths], "k:", label=r"$L^2$에 비례 (참고선)")  # ko
ax.plot(lengths, [ours[-1] * (L / lengths[-1]) ** 2 for L in lengths], "k:", label=r"$\propto L^2$ (guide line)")  # en
ax.set_xscale("log", base=2)
ax.set_yscale("log")
plain = FuncFormatter(lambda value, _: f"{value:g}")  # ko: 10의 거듭제곱 대신 보통 숫자로 # en: plain numbers, not powers of ten
ax.xaxis.set_major_formatter(plain)
ax.yaxis.set_major_formatter(plain)
ax.set_xlabel("시퀀스 길이 L (토큰)")  # ko
ax.set_xlabel("sequence length L (tokens)")  # en
ax.set_ylabel("시간 (초)")  # ko
ax.set_ylabel("time (s)")  # en
ax.set_title("어텐션 한 번의 시간")  # ko
ax.set_title("Time of one attention call")  # en
ax.legend(fontsize=8)
plt.show()

# %% [markdown] lang="ko"
# 출력의 "×prev" 두 열은 길이가 2배가 될 때 시간이 몇 배가 됐는지입니다. 짧은 길이에서는 함수 호출
# 같은 고정 비용이 섞여 4배에 못 미치기도 하고, 중간 길이에서는 행렬이 프로세서의 캐시에 다 들어가지
# 않게 되면서 4배보다 크게 뛰기도 합니다. 그래서 경사는 가장 긴 두 길이 사이에서 봅니다. 가중치 행렬의 크기는
# 언제나 정확히 $h \cdot L^2 \cdot 4$바이트입니다. 강의의 표와 그림에서 경사와 메모리를 비교해 보세요.
#
# ## 패키지의 생성 코드
#
# KV 캐시를 보려면 디코더만 있는 모델과 생성 루프가 필요합니다. 아래 셀이 패키지에서 그것을 가져옵니다.
# 마지막의 `greedy_loop`와 `generate`가 이번 강의의 "코드" 절에 나오는 함수입니다.

# %% [markdown] lang="en"
# The "×prev" columns give the factor by which the time grew when the length doubled. At short
# lengths fixed costs such as function calls can keep it below 4; at middle lengths it can jump above 4
# where the matrices stop fitting in the processor's caches. That is why the slope is read between
# the two longest lengths. The weight matrix always takes exactly $h \cdot L^2 \cdot 4$ bytes.
# Compare the slope and the memory with the lesson's table and figure.
#
# ## The package's generation code
#
# The KV cache needs a decoder-only model and the generation loop; the next cell brings them in
# from the package. The last two, `greedy_loop` and `generate`, are the functions of the lesson's
# "Code" section.

# %%
# [[code:models.DecoderOnlyTransformer]]


# [[code:generate.greedy_loop]]


# [[code:generate.generate]]

# %% [markdown] lang="ko"
# ## KV 캐시에는 무엇이 들어 있나
#
# 강의와 같은 크기의 모델($D$ = 64, 헤드 4개, $d_{ff}$ = 128, 층 2개, 어휘 64개)을 만들고, 캐시를 손으로
# 채워 봅니다. 프롬프트 토큰 3개를 넣은 뒤 새 토큰을 하나씩 넣으면, 층마다 키와 밸류
# $(B, h, \text{길이}, d_k)$가 길이 방향으로 한 칸씩 늘어납니다. 쿼리는 저장하지 않습니다. 마지막으로,
# 캐시로 한 토큰씩 계산한 로짓이 시퀀스 전체를 한 번에 넣은 로짓과 같은지 확인합니다. 파라미터 수는
# 강의의 KV 캐시 절에 나온 모델과 비교해 보세요.

# %% [markdown] lang="en"
# ## What is in the KV cache
#
# Build a model of the lesson's size ($D$ = 64, 4 heads, $d_{ff}$ = 128, 2 layers, 64 tokens) and
# fill a cache by hand. After a prompt of 3 tokens, each new token makes every layer's keys and
# values $(B, h, \text{length}, d_k)$ one step longer along the length axis. Queries are not
# stored. Finally, check that the logits computed one token at a time with the cache equal those
# of the whole sequence fed at once. Compare the parameter count with the model in the lesson's KV
# cache section.

# %%
model = DecoderOnlyTransformer(TransformerConfig(vocab_size=64)).eval()
print(f"parameters: {sum(p.numel() for p in model.parameters()):,}")
seq = torch.randint(1, 64, (1, 6))  # ko: 프롬프트 3개 + 새 토큰 3개 # en: a prompt of 3 + 3 new tokens
cache = new_cache(len(model.decoder.layers))
with torch.no_grad():
    step_logits = [model(seq[:, :3], cache=cache)[:, -1]]
    print("after the prompt:", {key: tuple(t.shape) for key, t in cache[0]["self"].items()})
    for pos in range(3, 6):
        step_logits.append(model(seq[:, pos:pos + 1], cache=cache, offset=pos)[:, -1])  # ko: 새 토큰 (B, 1)만 # en: only the new token (B, 1)
        print(f"after position {pos}:", {key: tuple(t.shape) for key, t in cache[0]["self"].items()})
    full = model(seq)[:, 2:]  # ko: 시퀀스 전체를 한 번에 # en: the whole sequence at once
print(f"largest difference, cached vs whole sequence: {(torch.stack(step_logits, 1) - full).abs().max():.1e}")

# %% [markdown] lang="ko"
# ## 캐시 있는 생성과 없는 생성
#
# 위의 마지막 줄에 나온 차이는 부동소수점 반올림 수준입니다. 캐시는 근사가 아닙니다. 같은 값을 계산하되,
# 이미 한 계산을 되풀이하지 않을 뿐입니다.
#
# 이제 `generate`로 토큰 $T$개를 만들고, `use_cache=True`와 `False`를 비교합니다. 두 방식이 같은
# 토큰을 내는지 확인하고, 시간을 재고, 모델이 계산한 위치 수를 셉니다. 위치 수는 임베딩 층에 들어간
# 토큰 수로 셉니다. 세는 함수 `positions_computed`는 패키지의 `tutorial_code/generate.py`에서
# 가져옵니다(강의의 실험도 이 함수로 셉니다). 캐시 없이는 $1 + 2 + \cdots + T$개, 캐시를 쓰면
# $T$개일 것입니다. 강의의 KV 캐시 표와 비교해 보세요.

# %% [markdown] lang="en"
# ## Generating with and without the cache
#
# The difference on the last line above is at the level of floating-point rounding. The cache is no
# approximation: it computes the same values, only without repeating work already done.
#
# Now let `generate` make $T$ tokens, with `use_cache=True` and with `False`. Check that both give
# the same tokens, time them, and count the positions the model computes, as the number of tokens
# that enter the embedding layer (the counting function, `positions_computed`, comes from the
# package's `tutorial_code/generate.py`; the lesson's experiment counts with it too): $1 + 2 + \cdots + T$ without the
# cache, $T$ with it, we expect. Compare with the lesson's KV cache table.

# %%
# [[code:generate.positions_computed]]


prompt = torch.randint(1, 64, (1, 1))
Ts = [32, 64, 128, 256]
gen_fns = {(c, T): lambda c=c, T=T: generate(model, prompt, T, use_cache=c) for T in Ts for c in (False, True)}
secs = median_seconds(gen_fns, dict.fromkeys(gen_fns, 1))
no_cache_s = [secs[False, T] for T in Ts]
cache_s = [secs[True, T] for T in Ts]

print("    T   same tokens   no cache (s)   KV cache (s)   speed-up   positions (no cache)   positions (cache)")
for i, T in enumerate(Ts):
    same = torch.equal(gen_fns[False, T](), gen_fns[True, T]())
    work = {c: positions_computed(model, gen_fns[c, T]) for c in (False, True)}
    print(f"{T:5d}   {str(same):>11}   {no_cache_s[i]:12.3f}   {cache_s[i]:12.3f}   {no_cache_s[i] / cache_s[i]:8.1f}"
          f"   {work[False]:20,}   {work[True]:17,}")

fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(Ts, no_cache_s, "o-", color="tab:orange", label="캐시 없음")  # ko
ax.plot(Ts, no_cache_s, "o-", color="tab:orange", label="no cache")  # en
ax.plot(Ts, cache_s, "s-", color="tab:blue", label="KV 캐시")  # ko
ax.plot(Ts, cache_s, "s-", color="tab:blue", label="KV cache")  # en
ax.set_xlabel("생성한 토큰 수 T")  # ko
ax.set_xlabel("tokens generated T")  # en
ax.set_ylabel("시간 (초)")  # ko
ax.set_ylabel("time (s)")  # en
ax.set_title("토큰 T개 생성 시간")  # ko
ax.set_title("Time to generate T tokens")  # en
ax.legend()
plt.show()

# %% [markdown] lang="ko"
# 캐시를 쓰면 시간이 $T$에 비례해 거의 직선으로 늘고, 캐시가 없으면 위로 휩니다. 속도 향상이 위치 수의
# 차이보다 훨씬 작은 것은 모델이 아주 작아서 한 단계마다 드는 고정 비용이 계산보다 크기 때문입니다.
#
# ## 우리 문서의 길이로 어림하기
#
# 마지막으로 $L^2$ 표를 여러분의 상황에 맞춰 봅니다. 문서 길이, 헤드 수, 스택 하나의 층 수를 넣으면 float32
# 가중치 행렬의 크기를 헤드 하나·어텐션 하위 층 하나와 모델 전체(배치 1)로 계산합니다. 기본값은 2017년
# 논문의 기본 모델(헤드 8개, 인코더와 디코더 각 6층)입니다. 인코더–디코더에는 인코더 층마다 셀프 어텐션이,
# 디코더 층마다 셀프 어텐션과 크로스 어텐션이 있으므로, 어텐션 하위 층은 층 수의 세 배입니다(강의의 위젯도
# 이렇게 셉니다). 학습할 때는 역전파를 위해
# 이 행렬들을 모두 저장하므로 적어도 모델 전체 값만큼이 필요합니다. 추론할 때는 모든 층의 행렬이 한꺼번에
# 메모리에 있지는 않지만, 계산량은 그대로 길이의 제곱으로 늘어납니다.

# %% [markdown] lang="en"
# With the cache the time grows in proportion to $T$, almost a straight line; without it the curve
# bends upwards. The speed-up is far smaller than the saving in positions because the model is
# tiny: each step's fixed overhead is larger than its arithmetic.
#
# ## An estimate for our own documents
#
# Finally, fit the $L^2$ table to your own case. Enter a document length, a number of heads and a
# number of layers per stack, and get the size of the float32 weight matrices for one head in one
# attention sub-layer and for the whole model (batch 1). The defaults are the 2017 paper's base
# model (8 heads, 6 layers in each of the encoder and the decoder). An encoder–decoder has
# self-attention in every encoder layer and both self- and cross-attention in every decoder layer,
# so it has three times as many attention sub-layers as layers (the lesson's widget counts them
# the same way). Training keeps all of these matrices for backpropagation, so it
# needs at least the whole-model figure. Inference does not hold every layer's matrix in memory at
# once, but its work still grows with the square of the length.

# %%
doc_tokens, n_heads, n_layers = 6000, 8, 6  # ko: 문서 길이(토큰), 헤드 수, 스택 하나의 층 수 # en: document length (tokens), heads, layers per stack
n_sublayers = 3 * n_layers  # ko: 인코더–디코더: 인코더 셀프, 디코더 셀프, 크로스 어텐션이 층마다 # en: encoder–decoder: encoder self-, decoder self- and cross-attention per layer
for L in (doc_tokens, 2 * doc_tokens):
    one = L * L * 4 / MIB
    print(f"L = {L:,}: one head, one attention sub-layer {one:,.0f} MiB;"
          f" {n_heads} heads × {n_sublayers} attention sub-layers {one * n_heads * n_sublayers / 1024:,.1f} GiB")

# %% [markdown] lang="ko"
# ## 첫 칸 기억하기: LSTM 대 트랜스포머
#
# 강의의 "첫 칸 실험"을 작게 줄여 직접 돌려 봅니다. 길이 $L$인
# 시퀀스의 칸마다 +1이나 −1을 무작위로 넣고, **첫 칸**의 부호를 맞히게 합니다. 답은 맨 앞에 있지만
# 모델은 시퀀스를 다 본 뒤에 답해야 합니다. 데이터는 `tutorial_code/tasks/first_cell.py`에서, 두 모델은
# `tutorial_code/classifiers.py`에서 가져옵니다. 강의의 실험이 쓰는 것과 같은 코드입니다.
#
# - `LSTMClassifier`: 은닉 크기 16인 LSTM. 칸을 하나씩 읽고 마지막 은닉 상태로 분류합니다. 첫 칸의
#   정보를 $L$단계 동안 들고 가야 합니다.
# - `FirstCellTransformer`: 6강 실습과 같은 모델입니다. 임베딩 × $\sqrt{D}$에 학습하는 위치 임베딩을
#   더하고, 인코더 블록 하나($D$ = 16, 헤드 2개)를 지나, 모든 위치의 출력을 평균 내어 분류합니다.
#   평균에서 첫 칸의 몫은 $1/L$뿐이므로, 잘 맞히려면 어텐션으로 첫 칸의 정보를 모든 위치로 옮겨 와야
#   합니다.
#
# 인코더 블록(`tutorial_code/layers.py`의 `EncoderLayer`, 셀에 함께 들어 있습니다)은 위에서 가져온
# `MultiHeadAttention`, `PositionwiseFeedForward`, `SublayerConnection`을 쓰므로, 이 절만 따로 실행하지 말고 위의 셀을 먼저 모두 실행하세요.

# %% [markdown] lang="en"
# ## Remembering the first cell: LSTM vs Transformer
#
# A small run of the lesson's first-cell experiment.
# Fill a sequence of length $L$ with random +1 and −1 cells and ask for the sign of the **first
# cell**. The answer sits at the very front, but the model answers only after reading everything.
# The data come from `tutorial_code/tasks/first_cell.py` and both models from
# `tutorial_code/classifiers.py`, the code the lesson's experiment runs:
#
# - `LSTMClassifier`: an LSTM with hidden size 16 that reads the cells one by one and classifies
#   from its last hidden state. It has to carry the first cell through $L$ steps.
# - `FirstCellTransformer`: the model of the lesson 6 lab. Embedding × $\sqrt{D}$ plus a learned
#   position embedding, one encoder block ($D$ = 16, 2 heads), then the mean of the outputs at all
#   positions goes to a classifier. The first cell is only $1/L$ of that mean, so to do well the
#   model has to carry the first cell's information to every position, which is what attention
#   can do directly.
#
# The encoder block (`EncoderLayer` from `tutorial_code/layers.py`, in the same cell) uses
# `MultiHeadAttention`, `PositionwiseFeedForward` and `SublayerConnection` from the cells above, so run all the cells above first rather than this section alone.

# %%
# [[code:tasks.first_cell.make_data]]


# [[code:classifiers.FirstCellTransformer]]


# [[code:classifiers.LSTMClassifier]]

# %% [markdown] lang="ko"
# 이제 길이 10, 50, 100에서 두 모델을 학습시킵니다. 설정은 실험의 기본값 그대로입니다. 학습 시퀀스
# 2,000개, 테스트 시퀀스 1,000개, Adam(학습률 0.005), 배치 100, 최대 30에포크이고, 실험처럼 한 에포크
# 동안 학습 시퀀스를 모두 맞히면 거기서 멈춥니다. 강의의 실험과 달리 시드는 하나이고 길이는 세 개뿐입니다.
# 더 많은 길이와 시드로 돌린 전체 실험의 결과는 강의 페이지에 있습니다. 데이터와 시드가 다르므로
# 여러분의 작은 실험은 세부 숫자가 다를 수 있습니다.
#
# 실행하기 전에 예측해 보세요. **길이 100에서는 LSTM과 트랜스포머 중 누가 이길까요?** 트랜스포머에
# 대해서는 첫 칸이 받는 어텐션 가중치의 평균(모든 테스트 시퀀스, 헤드, 쿼리에 걸친 평균)도 재서 균등 분배
# $1/L$과 비교합니다.

# %% [markdown] lang="en"
# Now train both models at lengths 10, 50 and 100, with the experiment's default settings: 2,000
# training and 1,000 test sequences, Adam (learning rate 0.005), batches of 100, at most 30 epochs,
# stopping, as the experiment does, once an epoch gets every training sequence right. Unlike the
# lesson's experiment, this runs one seed and only three lengths. The full experiment, with
# more lengths and seeds, is on the lesson page; with other data and another seed, your small run
# may differ from it in detail.
#
# Before running it, make a prediction: **at length 100, which wins, the LSTM or the
# Transformer?** For the Transformer we also measure the mean attention weight the first cell
# receives (over all test sequences, heads and queries) and compare it with the uniform share
# $1/L$.


# %%
# ko: 실험의 기본값(tutorial_code/experiments/lstm_vs_attention.py의 Config)
# en: the experiment's defaults (its Config in tutorial_code/experiments/lstm_vs_attention.py)
N_TRAIN, N_TEST = 2000, 1000  # ko: 학습·테스트 시퀀스 # en: training and test sequences
EPOCHS, BATCH_SIZE, LR = 30, 100, 0.005  # ko: 최대 에포크, 배치, Adam 학습률 # en: at most this many epochs, batch, Adam's learning rate
HIDDEN = 16  # ko: LSTM 은닉 크기 # en: the LSTM's hidden size
D_MODEL, N_HEADS, D_FF = 16, 2, 32  # ko: 트랜스포머 # en: the Transformer
SEED = 0


def logits_of(model: nn.Module, tokens: Tensor) -> Tensor:
    out = model(tokens)  # ko: LSTM은 로짓, 트랜스포머는 (로짓, 어텐션 가중치) # en: LSTM: logits; Transformer: (logits, attention weights)
    return out[0] if isinstance(out, tuple) else out


def train_first_cell(model: nn.Module, x: Tensor, y: Tensor, gen: torch.Generator) -> int:
    # ko: Adam으로 최대 EPOCHS 에포크 학습하고, 실제로 돈 에포크 수를 돌려줍니다
    # en: trains with Adam for at most EPOCHS epochs; returns the epochs it ran
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    for epoch in range(1, EPOCHS + 1):
        order = torch.randperm(len(x), generator=gen)
        correct = 0
        for i in range(0, len(x), BATCH_SIZE):
            batch = order[i : i + BATCH_SIZE]
            logits = logits_of(model, x[batch])
            loss = F.binary_cross_entropy_with_logits(logits, y[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
            correct += ((logits > 0).float() == y[batch]).sum().item()
        if correct == len(x):  # ko: 이번 에포크에 학습 시퀀스를 모두 맞혔으면 멈춤 # en: every training sequence right in this epoch: stop
            break
    return epoch


first_lengths = [10, 50, 100]
acc = {"lstm": [], "transformer": []}
print("     L   LSTM acc (epochs)   Transformer acc (epochs)   attention to cell 1   uniform 1/L   × uniform")
for L in first_lengths:
    gen = torch.Generator().manual_seed(L)
    x_train, y_train = make_data(N_TRAIN, L, gen)  # ko: 토큰 (N, L)은 0/1(칸 −1/+1), 정답 = 첫 칸 # en: tokens (N, L) are 0/1 (cells −1/+1), label = first cell
    x_test, y_test = make_data(N_TEST, L, gen)
    epochs = {}
    for kind in ("lstm", "transformer"):
        torch.manual_seed(SEED)
        model = LSTMClassifier(HIDDEN) if kind == "lstm" else FirstCellTransformer(D_MODEL, N_HEADS, D_FF, L)
        epochs[kind] = train_first_cell(model, x_train, y_train, gen)
        with torch.no_grad():
            logits = logits_of(model, x_test)
        acc[kind].append(((logits > 0).float() == y_test).float().mean().item())
    with torch.no_grad():
        _, weights = model(x_test)  # ko: 마지막 모델은 트랜스포머. (N, h, L, L) # en: the last model is the Transformer: (N, h, L, L)
    first = weights[..., 0].mean().item()  # ko: 키 위치 0이 받은 가중치, 시퀀스·헤드·쿼리 평균 # en: weight on key position 0, mean over sequences, heads and queries
    lstm, transformer = (f"{acc[kind][-1]:.3f} ({epochs[kind]:2d})" for kind in ("lstm", "transformer"))
    print(f"{L:6d}   {lstm:>17}   {transformer:>24}   {first:19.3f}   {1 / L:11.3f}   {first * L:9.1f}")

fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(first_lengths, acc["lstm"], "o-", color="tab:orange", label="LSTM")
ax.plot(first_lengths, acc["transformer"], "s-", color="tab:blue", label="트랜스포머")  # ko
ax.plot(first_lengths, acc["transformer"], "s-", color="tab:blue", label="Transformer")  # en
ax.axhline(0.5, ls="--", color="gray", lw=1, label="찍기 (0.5)")  # ko
ax.axhline(0.5, ls="--", color="gray", lw=1, label="guessing (0.5)")  # en
ax.set_xscale("log")
ax.set_xticks(first_lengths, [str(L) for L in first_lengths])
ax.minorticks_off()
ax.set_ylim(0.4, 1.03)
ax.set_xlabel("시퀀스 길이 L")  # ko
ax.set_xlabel("sequence length L")  # en
ax.set_ylabel("테스트 정확도")  # ko
ax.set_ylabel("test accuracy")  # en
ax.set_title("첫 칸 맞히기: 길이에 따른 정확도")  # ko
ax.set_title("First cell: accuracy by length")  # en
ax.legend(fontsize=8)
plt.show()

# %% [markdown] lang="ko"
# 출력을 읽어 봅시다. 괄호 안은 학습한 에포크 수이고, 30이면 끝까지 학습 시퀀스를 다 맞히지 못했다는
# 뜻입니다. 길이 10에서는 두 모델 모두 테스트 시퀀스를 다 맞힙니다. 길이 50과 100에서 LSTM은 30에포크를
# 다 돌고도 0.5 근처, 곧 찍기 수준입니다. 첫 칸의 정보를 수십 단계 동안 은닉 상태에 들고 가지 못한
# 것입니다. 트랜스포머는 세 길이 모두 1.000이고 몇 에포크 만에 멈췄습니다. 첫 칸이 받는 어텐션은 모든
# 길이에서 균등 분배 $1/L$의 몇 배에서 수십 배입니다. 어느 위치의 쿼리든 첫 칸을 한 단계 만에 직접
# 봅니다. 길이가 얼마든 경로의 길이는 1입니다.
#
# 강의의 정확도 표, 첫 칸 어텐션 표와 비교해 보세요. 강의의 표에는 길이가 더 많아서 LSTM이 어디서
# 꺾이는지 더 자세히 보입니다. 이 작은 실험이 말해 주지 않는 것도 있습니다. 시드가 하나뿐이고, 칸이 두
# 종류이며 정답이 늘 같은 자리에 있는 장난감 과제입니다. 그리고 직통 경로에는 대가가 있습니다. 이
# 노트북 앞부분에서 잰 $L \times L$ 비용입니다. 강의의 "트랜스포머가 늘 이기지는 않는다" 절을 함께
# 읽어 보세요.

# %% [markdown] lang="en"
# Read the output. The number in brackets is the epochs trained; 30 means the model never got every
# training sequence right. At length 10 both models get every test sequence right. At lengths 50
# and 100 the LSTM runs all 30 epochs and still sits near 0.5, which is guessing: it could not
# carry the first cell in its hidden state through dozens of steps. The Transformer scores 1.000
# at all three lengths and stopped after a few epochs. The attention the first cell receives is
# several to dozens of times the uniform share $1/L$ at every length: a query at any position
# looks at the first cell directly, in one step. Whatever the length, the path is one step long.
#
# Compare with the lesson's accuracy table and first-cell attention table. The lesson has more
# lengths, so it shows in more detail where the LSTM breaks down. There is also what this small
# run does not tell you: it has one seed, and it is a toy task whose cells take two values and
# whose answer always sits in the same place. And the direct path has a price, the $L \times L$
# cost measured earlier in this notebook. Read the lesson's "Transformers are not better at
# everything" section with it.

# %% [markdown] lang="ko"
# ## 해 보기
#
# - `doc_tokens`에 여러분 회사 문서의 실제 길이를 넣어 보세요(한국어 문서는 글자 수와 토큰 수가 꽤
#   다를 수 있습니다). 길이가 2배일 때 모델 전체의 크기는 몇 배가 되나요?
# - 위의 측정에서 `lengths` 목록 끝에 8192를 넣어 보세요. 시간이 좀 걸리고, 가중치 텐서(헤드 4개)가
#   1 GiB입니다. 마지막 배수와 경사는 어떻게 되나요?
# - KV 캐시 측정의 모델을 `TransformerConfig(vocab_size=64, d_model=256, n_layers=4)`로 키워 보세요.
#   속도 향상이 어떻게 달라지나요? 강의는 모델 하나에서만 재고, 모델이 크면 속도 향상이 위치 수 차이에
#   더 가까워질 것으로 보았습니다. 여러분의 결과도 그런가요?
# - 첫 칸 실험의 `first_lengths`에 25를 넣거나, 시드를 바꿔(데이터는 `torch.Generator().manual_seed(L)`,
#   모델은 `SEED = 1`) 다시 돌려 보세요. LSTM이 꺾이는 길이가 강의의 표와 같나요? 200을
#   넣으면 시간이 조금 더 걸립니다.

# %% [markdown] lang="en"
# ## Try it
#
# - Put the real length of your company's documents into `doc_tokens` (in tokens, which can differ
#   a lot from the number of characters or words). How many times larger does the whole-model
#   figure get when the length doubles?
# - Add 8192 to `lengths` in the measurement above. It takes a while, and the weight tensor (4 heads) is
#   1 GiB. What are the last factor and the slope now?
# - Grow the KV cache model to `TransformerConfig(vocab_size=64, d_model=256, n_layers=4)`. How does
#   the speed-up change? The lesson measured one model only and expects a bigger model's speed-up to
#   come closer to the saving in positions: does your run bear that out?
# - In the first-cell experiment, add 25 to `first_lengths`, or change the seeds (the data's in
#   `torch.Generator().manual_seed(L)`, the models' with `SEED = 1`), and run it again.
#   Does the LSTM break down at the same length as in the lesson's table? Adding 200 takes a little
#   longer.
