# %% [markdown] lang="ko"
# # 6강 실습: 위치 정보
#
# 이 노트북은 강좌 패키지의 위치 정보 코드(`sinusoidal_table`, `SinusoidalPositionalEncoding`,
# `LearnedPositionalEmbedding`, `RotaryEmbedding`)를 그대로 가져와 작은 예제로 돌려 봅니다.
# 목표는 다섯 가지입니다.
#
# 1. 위치 정보가 없으면 입력 순서를 섞어도 출력이 똑같이 섞일 뿐이라는 것을 확인합니다.
# 2. 사인파 위치 인코딩 표를 만들어 그려 보고, 두 위치 벡터의 내적이 거리에만 달려 있음을 봅니다.
# 3. 학습하는 위치 임베딩의 길이 한계에 직접 부딪쳐 봅니다.
# 4. 회전 위치 임베딩(RoPE)에서 점수가 상대 거리에만 달려 있다는 것을 숫자로 확인합니다.
# 5. 첫 칸 과제를 작게 줄여, 위치 임베딩이 있는 모델과 없는 모델을 학습시켜 비교합니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 6 lab: Position information
#
# This notebook takes the course package's position code (`sinusoidal_table`,
# `SinusoidalPositionalEncoding`, `LearnedPositionalEmbedding`, `RotaryEmbedding`) as it is and
# runs it on small examples. Five goals:
#
# 1. Check that without position information, shuffling the input only shuffles the output the
#    same way.
# 2. Build and draw the sinusoidal table, and see that the dot product of two position vectors
#    depends only on how far apart they are.
# 3. Run into the length limit of a learned position embedding.
# 4. Check in numbers that with rotary position embedding (RoPE) a score depends only on the
#    offset.
# 5. Train a small version of the first-cell task with and without a position embedding.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import Tensor, nn

torch.manual_seed(0)
torch.set_num_threads(1)  # ko: 작은 텐서는 스레드 하나가 더 빠르고, CPU를 나눠 쓸 때도 느려지지 않습니다 # en: small tensors run faster on one thread, and it keeps a shared CPU from slowing down
plt.rcParams["figure.dpi"] = 80
f64 = torch.float64

# %% [markdown] lang="ko"
# ## 패키지의 코드
#
# 아래 코드는 강좌 패키지의 코드와 한 글자도 다르지 않습니다. 첫 셀은 3강과 5강의 어텐션
# (`tutorial_code/attention.py`, `tutorial_code/multihead.py`, 둘이 함께 쓰는 입력 검사
# `tutorial_code/sizes.py`)이고, 둘째 셀이 이번 강의의
# `tutorial_code/position.py`입니다.

# %% [markdown] lang="en"
# ## The package's code
#
# The code below is the course package's own, word for word. The first cell is
# the attention of lessons 3 and 5 (`tutorial_code/attention.py`, `tutorial_code/multihead.py`, and
# the input check both use, `tutorial_code/sizes.py`);
# the second is this lesson's `tutorial_code/position.py`.

# %%
# [[code:attention.scaled_dot_product_attention]]


# [[code:multihead.MultiHeadAttention]]

# %%
# [[code:position.sinusoidal_table]]


# [[code:position.SinusoidalPositionalEncoding]]


# [[code:position.LearnedPositionalEmbedding]]


# [[code:position.RotaryEmbedding]]

# %% [markdown] lang="ko"
# ## 위치 정보 없이 섞기
#
# 무작위로 초기화한 멀티헤드 어텐션($D = 16$, 헤드 4개)에 길이 5인 무작위 시퀀스를 넣고, 같은
# 시퀀스의 순서를 섞어 다시 넣습니다. 위치 정보가 없으면 섞은 입력의 출력은 원래 출력을 같은
# 순서로 섞은 것과 같아야 합니다. 이어서 사인파 위치 인코딩을 더한 뒤 같은 비교를 합니다. 섞은
# 뒤에도 위치 표는 0, 1, 2, …의 순서 그대로 더해집니다. 강의의 "왜 필요한가"에 나온 두 숫자와
# 비교해 보세요.

# %% [markdown] lang="en"
# ## Shuffling without position information
#
# Feed a random sequence of length 5 to a randomly initialised multi-head attention ($D = 16$,
# 4 heads), then feed the same sequence shuffled. Without position information, the output of the
# shuffled input must be the original output shuffled the same way. Then add the sinusoidal
# encoding and compare again; after the shuffle the position table is still added in the order
# 0, 1, 2, …. Compare with the two numbers in the lesson's "Motivation".

# %%
mha = MultiHeadAttention(16, 4).double().eval()
x = torch.randn(1, 5, 16, dtype=f64)
perm = torch.tensor([3, 0, 4, 1, 2])  # ko: 새 순서: 원래 3번, 0번, 4번, … # en: new order: old 3, 0, 4, ...
pe = SinusoidalPositionalEncoding(16)

with torch.no_grad():
    y, _ = mha(x)
    y_shuffled, _ = mha(x[:, perm])
    z, _ = mha(pe(x))
    z_shuffled, _ = mha(pe(x[:, perm]))

print("no position:      max |out(shuffled) - shuffled(out)| =", f"{(y_shuffled - y[:, perm]).abs().max().item():.1e}")
print("sinusoidal added: max |out(shuffled) - shuffled(out)| =", f"{(z_shuffled - z[:, perm]).abs().max().item():.3f}")

# %% [markdown] lang="ko"
# 첫 줄은 float64의 반올림 오차뿐입니다. 셀프 어텐션은 입력의 순서를 모르고, 순서를 바꾸면
# 출력의 행이 자리만 바뀝니다. 위치 표를 더하자 차이가 생겼습니다. 이제 순서가 출력에 닿습니다.
#
# ## 사인파 위치 인코딩
#
# 강의의 "손으로 풀어 보기"처럼 $d = 64$인 표를 만들고 위치 10의 차원 0, 16, 32를 읽습니다.
# 이어서 차원마다 한 바퀴 도는 데 걸리는 위치 수(파장) $2\pi \cdot 10000^{2i/d}$을 계산합니다.

# %% [markdown] lang="en"
# The first line is float64 rounding and nothing else: self-attention does not know the order,
# and reordering the input only moves the output rows around. With the position table added, a
# difference appears: order now reaches the output.
#
# ## Sinusoidal encoding
#
# As in the lesson's worked example, build the table for $d = 64$ and read dimensions 0, 16 and 32
# at position 10. Then compute each dimension's wavelength, the number of positions it takes to go
# once around: $2\pi \cdot 10000^{2i/d}$.

# %%
table = sinusoidal_table(100, 64)  # (L, D) = (100, 64), float64
print("shape:", tuple(table.shape))
print(f"PE[10, 0]  = sin(10)  = {table[10, 0].item():.3f}")
print(f"PE[10, 16] = sin(1)   = {table[10, 16].item():.3f}")
print(f"PE[10, 32] = sin(0.1) = {table[10, 32].item():.3f}")
print("position 0:", table[0, :6].tolist(), "...")
for dim in (0, 4, 16, 32, 62):
    print(f"dimension {dim:2d}: wavelength {2 * math.pi * 10000 ** (dim / 64):10,.1f} positions")

# %%
fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
im = ax1.imshow(table, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1)
ax1.set_xlabel("차원")  # ko
ax1.set_xlabel("dimension")  # en
ax1.set_ylabel("위치")  # ko
ax1.set_ylabel("position")  # en
ax1.set_title("사인파 위치 인코딩 (100 × 64)")  # ko
ax1.set_title("Sinusoidal encoding (100 × 64)")  # en
fig.colorbar(im, ax=ax1)
for dim in (0, 4, 16, 32):
    ax2.plot(table[:, dim], label=f"차원 {dim}")  # ko
    ax2.plot(table[:, dim], label=f"dimension {dim}")  # en
ax2.set_xlabel("위치")  # ko
ax2.set_xlabel("position")  # en
ax2.set_title("차원이 높을수록 천천히 변한다")  # ko
ax2.set_title("Higher dimensions change more slowly")  # en
ax2.legend(fontsize=8, loc="lower left")
plt.show()

# %% [markdown] lang="ko"
# 강의의 그림과 같은 표입니다. 왼쪽 열은 줄무늬가 촘촘하고, 오른쪽으로 갈수록 줄무늬가 길어집니다.
#
# 사인과 코사인을 짝으로 둔 이유를 확인합니다. 한 쌍 $(\sin a, \cos a)$를 $k$칸 옮긴 값은 원래
# 쌍을 각도 $k\omega_i$만큼 회전한 것입니다($\omega_i = 1/10000^{2i/d}$). 회전 각도는 $k$에만
# 달려 있고 출발 위치와는 상관이 없습니다. 그 결과 두 위치 벡터의 내적
# $PE(m)\cdot PE(n) = \sum_i \cos((m-n)\,\omega_i)$도 거리 $m - n$에만 달려 있습니다.

# %% [markdown] lang="en"
# It is the same table as in the lesson's figure: the left columns have tight stripes, and the
# stripes stretch further right.
#
# Now check why sines and cosines come in pairs. Shifting a pair $(\sin a, \cos a)$ by $k$
# positions is a rotation of the pair by the angle $k\omega_i$ (with
# $\omega_i = 1/10000^{2i/d}$): the angle depends on $k$ alone, not on where you start. As a
# result the dot product of two position vectors,
# $PE(m)\cdot PE(n) = \sum_i \cos((m-n)\,\omega_i)$, depends only on the distance $m - n$ too.

# %%
k = 3
omega = 1 / 10000 ** (torch.arange(0, 64, 2, dtype=f64) / 64)  # (32,)
sin_a, cos_a = table[:-k, 0::2], table[:-k, 1::2]  # ko: 위치 0..96의 쌍 # en: the pairs at positions 0..96
turned_sin = sin_a * torch.cos(k * omega) + cos_a * torch.sin(k * omega)  # ko: 각도 kω만큼 회전 # en: rotate by the angle kω
turned_cos = cos_a * torch.cos(k * omega) - sin_a * torch.sin(k * omega)
print(f"rotating every pair by k·ω = shifting by k={k}: max difference",
      f"{max((turned_sin - table[k:, 0::2]).abs().max(), (turned_cos - table[k:, 1::2]).abs().max()).item():.1e}")

gram = table @ table.T  # (100, 100): PE(m)·PE(n)
spread = max((gram.diagonal(o) - gram.diagonal(o).mean()).abs().max().item() for o in range(100))
print(f"largest spread along a diagonal (same m - n): {spread:.1e}")
for offset in (0, 1, 2, 5, 10, 20, 50):
    print(f"m - n = {offset:2d}: PE(m)·PE(n) = {gram.diagonal(offset).mean().item():6.2f}")

# %% [markdown] lang="ko"
# 거리가 0이면 내적은 $d/2 = 32$이고, 멀어질수록 대체로 작아집니다. 가까운 위치끼리 더 닮았습니다.
# 다만 이 성질은 위치 벡터끼리의 내적에 대한 것입니다. 실제 모델에서는 위치 표가 토큰 임베딩에
# 더해지고 $W_Q$, $W_K$를 거치므로, 점수는 절대 위치에도 달려 있습니다. 아래 RoPE 절에서 그 차이를
# 다시 봅니다.
#
# ## 학습하는 위치 임베딩과 길이 한계
#
# `LearnedPositionalEmbedding`은 위치마다 학습하는 벡터 하나, 곧 $(\text{max\_len}, D)$ 파라미터
# 표입니다. `max_len = 8`, $D = 4$로 만들고 길이 8과 9인 입력을 넣어 봅니다. 같은 일을 사인파
# 위치 인코딩에 시키면 어떻게 되는지도 봅니다.

# %% [markdown] lang="en"
# At distance 0 the dot product is $d/2 = 32$, and it mostly shrinks as the positions move apart:
# nearby positions look more alike. Note that this is about position vectors dotted with each
# other. In a real model the table is added to the token embeddings and passes through $W_Q$ and
# $W_K$, so scores depend on absolute positions as well; the RoPE section below comes back to
# this.
#
# ## Learned position embedding and its length limit
#
# `LearnedPositionalEmbedding` is one learned vector per position: a $(\text{max\_len}, D)$
# parameter table. Build one with `max_len = 8` and $D = 4$, and feed it inputs of length 8 and 9.
# Then ask the same of the sinusoidal encoding.

# %%
learned = LearnedPositionalEmbedding(max_len=8, d_model=4)
print("parameters:", sum(p.numel() for p in learned.parameters()), "= max_len × D = 8 × 4")
print("length 8:", tuple(learned(torch.zeros(1, 8, 4)).shape))
try:
    learned(torch.zeros(1, 9, 4))
except ValueError as err:
    print("length 9: ValueError:", err)

sinusoidal = SinusoidalPositionalEncoding(4)
print("sinusoidal, length 1000:", tuple(sinusoidal(torch.zeros(1, 1000, 4)).shape), "  parameters:", sum(p.numel() for p in sinusoidal.parameters()))

# %% [markdown] lang="ko"
# 학습하는 위치 임베딩은 길이 9인 입력을 받지 못합니다(위치 8은 표에 없습니다). 오류 메시지가
# 해결책 두 가지를 알려 줍니다.
# 사인파 위치 인코딩은 파라미터가 없고, 식으로 계산하므로 길이 1000도 받아들입니다.
#
# ## 회전 위치 임베딩(RoPE)
#
# 강의와 같은 실험입니다. $d_k = 8$인 무작위 쿼리 $q$ 하나와 키 $k$ 하나를 위치 0..7에 모두 놓고,
# `RotaryEmbedding`으로 위치마다 돌린 뒤 $8 \times 8$ 점수 표 $S_{mn} = (R_m q)\cdot(R_n k)$를
# 만듭니다. 비교를 위해 회전 대신 사인파 표를 더한 $(q + PE_m)\cdot(k + PE_n)$도 만듭니다. 같은
# 대각선(같은 $m - n$) 위에서 값이 얼마나 흩어지는지 잽니다.

# %% [markdown] lang="en"
# The learned embedding refuses an input of length 9 (position 8 is not in its table), and the
# error message names the two ways out. The sinusoidal encoding has no parameters and, being a formula, takes a
# length of 1000 just as well.
#
# ## Rotary position embedding (RoPE)
#
# The lesson's experiment: put one random query $q$ and one random key $k$ of width $d_k = 8$ at
# every position 0..7, rotate each by its position with `RotaryEmbedding`, and build the
# $8 \times 8$ score table $S_{mn} = (R_m q)\cdot(R_n k)$. For contrast, also build
# $(q + PE_m)\cdot(k + PE_n)$ with the sinusoidal table added instead of the rotation. Measure how
# far the values spread along each diagonal (constant $m - n$).

# %%
d_k, P = 8, 8
rope = RotaryEmbedding(d_k)
print("theta per pair:", [f"{t:g}" for t in (rope.base ** (-torch.arange(0, d_k, 2, dtype=f64) / d_k)).tolist()])

q, k = torch.randn(d_k, dtype=f64), torch.randn(d_k, dtype=f64)
q_rot = rope(q.expand(P, d_k).clone())  # ko: (P, d_k): m행은 m·θ만큼 회전 # en: (P, d_k): row m turned by m·θ
k_rot = rope(k.expand(P, d_k).clone())
S = q_rot @ k_rot.T  # (P, P): S[m, n]
pe8 = sinusoidal_table(P, d_k)
A = (q + pe8) @ (k + pe8).T  # ko: 더하는 방식 # en: the additive way


def diagonal_spread(M: Tensor) -> float:
    return max((M.diagonal(o) - M.diagonal(o).mean()).abs().max().item() for o in range(-P + 1, P))


for offset in range(4):
    print(f"m - n = {offset}: score {S.diagonal(-offset).mean().item():.3f}")
print(f"spread along diagonals, RoPE:       {diagonal_spread(S):.1e}")
print(f"spread along diagonals, added table: {diagonal_spread(A):.2f}")
print(f"change in length by the rotation:    {(q_rot.norm(dim=-1) - q.norm()).abs().max().item():.1e}")

# %%
fig, axes = plt.subplots(1, 2, figsize=(8.5, 3.8), layout="constrained")
titles = ["RoPE: $(R_m q)\\cdot(R_n k)$", "사인파 표를 더함: $(q+PE_m)\\cdot(k+PE_n)$"]  # ko
titles = ["RoPE: $(R_m q)\\cdot(R_n k)$", "table added: $(q+PE_m)\\cdot(k+PE_n)$"]  # en
for ax, M, title in zip(axes, (S, A), titles):
    ax.imshow(M, cmap="RdBu_r", vmin=-M.abs().max(), vmax=M.abs().max())
    for m in range(P):
        for n in range(P):
            dark = abs(M[m, n]) > 0.6 * M.abs().max()
            ax.text(n, m, f"{M[m, n]:.1f}", ha="center", va="center", fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(P))
    ax.set_yticks(range(P))
    ax.set_title(title, fontsize=10)
    ax.set_xlabel("키 위치 n")  # ko
    ax.set_xlabel("key position n")  # en
    ax.set_ylabel("쿼리 위치 m")  # ko
    ax.set_ylabel("query position m")  # en
plt.show()

# %% [markdown] lang="ko"
# 왼쪽 표에서 왼쪽 위에서 오른쪽 아래로 이어지는 대각선을 따라가 보세요. 숫자가 모두 같습니다.
# 오른쪽 표에서는 같은 대각선의 숫자가 제각각입니다. 강의의 RoPE 그림, 점수 표와 비교해 보세요.
# $q$와 $k$는 노트북에서 새로 뽑았으므로 숫자 자체는 다르지만, 대각선이 일정하다는 사실은 같습니다.
#
# 같은 성질을 시퀀스 전체로 보면 이렇습니다. 서로 다른 쿼리 6개와 키 6개를 위치 0..5에 두었을 때와,
# 같은 시퀀스를 통째로 100칸 뒤(위치 100..105)로 옮겼을 때 점수 표가 같아야 합니다.

# %% [markdown] lang="en"
# In the left table, follow any diagonal from top left to bottom right: the numbers repeat. In the
# right table they do not. Compare with the lesson's RoPE figure and score table; $q$ and $k$ are
# drawn afresh here, so the numbers themselves differ, but the constant diagonals do not.
#
# The same property for a whole sequence: 6 different queries and 6 keys at positions 0..5 must
# give the same score table as the same sequence moved 100 positions on (positions 100..105).

# %%
qs, ks = torch.randn(6, d_k, dtype=f64), torch.randn(6, d_k, dtype=f64)
at_start = rope(qs) @ rope(ks).T
moved = rope(qs, offset=100) @ rope(ks, offset=100).T
print(f"scores at positions 0..5 vs 100..105: max difference {(at_start - moved).abs().max().item():.1e}")

# %% [markdown] lang="ko"
# ## 첫 칸 과제: 위치를 빼면
#
# 9강의 실험을 작게 줄여 돌려 봅니다. ±1로 이루어진 길이 $L = 25$의 시퀀스를 주고
# **첫 칸**의 부호를 맞히게 합니다. 모델은 9강 실험의 것을 그대로 가져옵니다. 임베딩 × $\sqrt{D}$에
# 학습하는 위치 임베딩을 더하고, 인코더 층 하나($D = 16$, 헤드 2개)를 지나, 위치마다 나온 벡터를
# 평균 내어 분류합니다. 실험과 달리 시드 하나로 12에포크만 돌립니다(파라미터를 240번 고칩니다).
#
# 먼저 필요한 코드를 패키지에서 가져옵니다. 과제의 데이터(`tutorial_code/tasks/first_cell.py`)와
# 모델(`tutorial_code/classifiers.py`)이고, 모델이 쓰는 인코더 층(`tutorial_code/layers.py`)이 그 앞에
# 함께 들어옵니다.

# %% [markdown] lang="en"
# ## The first-cell task without position
#
# A small run of the lesson 9 experiment: sequences of $L = 25$ cells of ±1,
# and the task is the sign of the **first cell**. The model is that experiment's, unchanged:
# embedding × $\sqrt{D}$ plus a learned position embedding, one encoder layer ($D = 16$, 2 heads),
# then the mean of the vectors at all positions goes to a classifier. Unlike the experiment, we
# run one seed for 12 epochs (240 updates of the parameters).
#
# First the code it needs, from the package: the task's data (`tutorial_code/tasks/first_cell.py`)
# and the model (`tutorial_code/classifiers.py`), with the encoder layer it uses
# (`tutorial_code/layers.py`) brought in before it.

# %%
# [[code:tasks.first_cell.make_data]]


# [[code:tasks.first_cell.bag_bound]]


# [[code:classifiers.FirstCellTransformer]]

# %% [markdown] lang="ko"
# 이제 같은 데이터로 두 모델을 학습시킵니다. 하나는 위치 임베딩이 있고(`position=True`), 하나는
# 없습니다(`position=False`). 에포크마다 테스트 시퀀스 1,000개로 정확도를 잽니다. 학습이 끝나면 모든
# 쿼리가 첫 칸에 준 어텐션 가중치의 평균을 균등 분배 $1/L$과 비교합니다.

# %% [markdown] lang="en"
# Now train two models on the same data, one with the position embedding (`position=True`) and one
# without (`position=False`). After every epoch, measure the accuracy on 1,000 test sequences. At
# the end, compare the attention weight that the queries give the first cell, on average, with
# the uniform share $1/L$.

# %%
# ko: 9강 실험의 기본값(tutorial_code/experiments/lstm_vs_attention.py의 Config)
# en: the lesson 9 experiment's defaults (its Config in tutorial_code/experiments/lstm_vs_attention.py)
D_MODEL, N_HEADS, D_FF = 16, 2, 32
LR, BATCH_SIZE = 0.005, 100
L = 25
epochs = 12
gen = torch.Generator().manual_seed(0)
x_train, y_train = make_data(2000, L, gen)  # (2000, L) tokens 0/1, labels = first cell
x_test, y_test = make_data(1000, L, gen)


def accuracy(model: nn.Module) -> float:
    with torch.no_grad():
        logits, _ = model(x_test)
    return ((logits > 0).float() == y_test).float().mean().item()


history, first_attention = {}, {}
for position in (True, False):
    torch.manual_seed(0)
    model = FirstCellTransformer(D_MODEL, N_HEADS, D_FF, L, position)
    opt = torch.optim.Adam(model.parameters(), lr=LR)
    history[position] = []
    for epoch in range(epochs):
        order = torch.randperm(len(x_train), generator=gen)
        for i in range(0, len(x_train), BATCH_SIZE):
            batch = order[i : i + BATCH_SIZE]
            logits, _ = model(x_train[batch])
            loss = F.binary_cross_entropy_with_logits(logits, y_train[batch])
            opt.zero_grad()
            loss.backward()
            opt.step()
        history[position].append(accuracy(model))
    with torch.no_grad():
        _, weights = model(x_test)  # (N, h, L, L)
    first_attention[position] = weights[..., 0].mean().item()  # ko: 모든 시퀀스·헤드·쿼리의 평균 # en: mean over sequences, heads and queries
    print(f"position={position!s:5}  test accuracy by epoch: {[round(a, 3) for a in history[position]]}")

print(f"\nbest possible without order (bag_bound): {bag_bound(L):.3f}")
for position in (True, False):
    print(f"position={position!s:5}  final accuracy {history[position][-1]:.3f}"
          f"   attention to cell 1 {first_attention[position]:.3f}   uniform 1/L {1 / L:.3f}")

# %%
fig, ax = plt.subplots(figsize=(5, 3.2), layout="constrained")
epoch_axis = range(1, epochs + 1)
ax.plot(epoch_axis, history[True], "s-", label="위치 임베딩 있음")  # ko
ax.plot(epoch_axis, history[True], "s-", label="with position embedding")  # en
ax.plot(epoch_axis, history[False], "^-", label="위치 임베딩 없음")  # ko
ax.plot(epoch_axis, history[False], "^-", label="without position embedding")  # en
ax.axhline(bag_bound(L), ls=":", color="gray", label="순서 없이 가능한 최고")  # ko
ax.axhline(bag_bound(L), ls=":", color="gray", label="best possible without order")  # en
ax.axhline(0.5, ls="--", color="lightgray")
ax.set_xlabel("에포크")  # ko
ax.set_xlabel("epoch")  # en
ax.set_ylabel("테스트 정확도")  # ko
ax.set_ylabel("test accuracy")  # en
ax.set_ylim(0.4, 1.03)
ax.legend(fontsize=8)
plt.show()

# %% [markdown] lang="ko"
# 위치 임베딩이 있는 모델은 한동안 0.5 근처에 머물다가 어느 순간 첫 칸을 찾아내고 정확도가 1에
# 가까워집니다. 첫 칸에 주는 어텐션도 $1/L$보다 훨씬 큽니다. 위치 임베딩이 없는 모델은 끝까지
# "순서 없이 가능한 최고" 선 근처에 머물고, 첫 칸 어텐션은 $1/L$과 거의 같습니다. 강의의 "첫 칸
# 실험" 표에서 $L = 25$ 줄과 비교해 보세요.
#
# ## 해 보기
#
# - **과제 2로 가는 길.** 마지막 실험에서 `L`을 10이나 50으로 바꾸고, `torch.manual_seed(0)`의
#   시드를 바꿔 가며 위치 임베딩이 없는 모델을 세 번 이상 돌려 보세요. 정확도와 첫 칸 어텐션을 기록하고
#   `bag_bound(L)`, $1/L$과 비교한 뒤 6강의 내용과 연결해 설명해 보세요.
# - 섞기 실험에서 위치 표를 더하는 대신 `MultiHeadAttention(16, 4, rope=RotaryEmbedding(4))`를
#   써 보세요. 섞은 입력의 출력이 이제도 원래 출력을 섞은 것과 같나요?
# - `sinusoidal_table(100, 64, base=100.0)`으로 히트맵을 다시 그려 보세요. 파장이 어떻게 바뀌나요?

# %% [markdown] lang="en"
# The model with the position embedding stays near 0.5 for a while, then finds the first cell
# and its accuracy climbs close to 1; its attention to the first cell is far above $1/L$. The model
# without it stays near the "best possible without order" line throughout, and its attention to
# the first cell is about $1/L$. Compare with the $L = 25$ row of the lesson's first-cell table.
#
# ## Try it
#
# - **On the way to assignment 2.** In the last experiment, set `L` to 10 or 50 and run the model
#   without position at least three times, changing the seed in `torch.manual_seed(0)`. Record the
#   accuracy and the attention to the first cell, compare them with `bag_bound(L)` and $1/L$, and
#   explain the result with this lesson.
# - In the shuffling experiment, instead of adding the position table, use
#   `MultiHeadAttention(16, 4, rope=RotaryEmbedding(4))`. Is the output of the shuffled input
#   still the original output shuffled?
# - Draw the heatmap again with `sinusoidal_table(100, 64, base=100.0)`. How do the wavelengths
#   change?
