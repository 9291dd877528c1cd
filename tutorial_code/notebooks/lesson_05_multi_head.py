# %% [markdown] lang="ko"
# # 5강 실습: 멀티헤드 어텐션
#
# 이 노트북은 강좌 패키지의 `MultiHeadAttention`을 그대로 가져와 작은 입력으로 돌려 봅니다.
# 목표는 네 가지입니다.
#
# 1. $(B, L, D)$ 입력이 $(B, h, L, d_k)$로 나뉘었다가 다시 $(B, L, D)$로 합쳐지는 과정을 모양
#    하나하나 확인합니다.
# 2. 파라미터 수가 $4D^2 + 4D$이고 헤드 수와 상관이 없다는 것을 직접 세어 봅니다.
# 3. 우리 모듈의 파라미터를 PyTorch의 `nn.MultiheadAttention`에 옮겨 넣고 같은 출력이 나오는지 봅니다.
# 4. 아직 학습하지 않은 헤드들의 가중치 표를 그려 봅니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 5 lab: Multi-head attention
#
# This notebook takes the course package's `MultiHeadAttention` as it is and runs it on small
# inputs. Four goals:
#
# 1. Follow an input of shape $(B, L, D)$, shape by shape, as it is split into $(B, h, L, d_k)$ and
#    put back together into $(B, L, D)$.
# 2. Count the parameters yourself: $4D^2 + 4D$, whatever the number of heads.
# 3. Copy our module's parameters into PyTorch's `nn.MultiheadAttention` and check that the outputs
#    agree.
# 4. Draw the weight tables of heads that have not been trained yet.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import torch
from torch import Tensor, nn

torch.manual_seed(0)
torch.set_num_threads(1)  # ko: 작은 텐서는 스레드 하나가 더 빠르고, CPU를 나눠 쓸 때도 느려지지 않습니다 # en: small tensors run faster on one thread, and it keeps a shared CPU from slowing down
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 패키지의 코드
#
# 아래 코드는 강좌 패키지의 코드 그대로입니다. 앞의 두 함수(`check_mask`, `scaled_dot_product_attention`)는
# 3강의 `tutorial_code/attention.py`에, 크기 인자가 양수인지 검사하는 `check_positive`는
# `tutorial_code/sizes.py`에, 클래스 `MultiHeadAttention`은 `tutorial_code/multihead.py`에 있습니다.
# 이번 실습의 주인공은 `MultiHeadAttention`의 `split_heads`와 `merge_heads`입니다.

# %% [markdown] lang="en"
# ## The package's code
#
# The code below is the course package's code as it stands: the first two functions
# (`check_mask`, `scaled_dot_product_attention`) are in lesson 3's `tutorial_code/attention.py`,
# `check_positive`, which checks that the size arguments are positive, is in
# `tutorial_code/sizes.py`, and the class `MultiHeadAttention` is in `tutorial_code/multihead.py`.
# The stars of this lab are `split_heads` and `merge_heads` of `MultiHeadAttention`.

# %%
# [[code:attention.scaled_dot_product_attention]]


# [[code:multihead.MultiHeadAttention]]

# %% [markdown] lang="ko"
# ## 헤드로 나누고 다시 합치기
#
# 강의의 "손으로 풀어 보기"와 같은 크기로 시작합니다. $D = 64$, $h = 4$이므로 헤드 하나의 폭은
# $d_k = 16$이고, 배치 $B = 2$, 길이 $L = 5$입니다. `mha(x)`가 안에서 하는 일을 한 줄씩 나눠
# 실행하고, 단계마다 모양을 출력합니다. 강의의 표와 비교해 보세요.

# %% [markdown] lang="en"
# ## Split into heads and merge back
#
# Same sizes as the lesson's worked example: $D = 64$ and $h = 4$, so each head is $d_k = 16$
# wide, with a batch of $B = 2$ sequences of length $L = 5$. We run what `mha(x)` does inside one
# line at a time and print the shape after every step. Compare with the lesson's table.

# %%
B, L, D, h = 2, 5, 64, 4
mha = MultiHeadAttention(D, h).eval()
x = torch.randn(B, L, D)

with torch.no_grad():
    q_all = mha.W_Q(x)  # ko: (B, L, D): 모든 헤드의 쿼리가 한 텐서에 # en: (B, L, D): every head's queries in one tensor
    q = mha.split_heads(q_all)  # (B, h, L, d_k)
    k = mha.split_heads(mha.W_K(x))
    v = mha.split_heads(mha.W_V(x))
    heads_out, w = scaled_dot_product_attention(q, k, v)  # (B, h, L, d_k), (B, h, L, L)
    concat = mha.merge_heads(heads_out)  # (B, L, D)
    y = mha.W_O(concat)  # (B, L, D)
    y_module, w_module = mha(x)

names = ["1. 입력", "2. 투영 XW_Q", "3. 헤드로 나누기", "4. 어텐션 가중치", "4. 헤드별 출력", "5. 이어 붙이기", "6. W_O로 섞기"]  # ko
names = ["1. input", "2. project XW_Q", "3. split into heads", "4. attention weights", "4. head outputs", "5. concatenate", "6. mix with W_O"]  # en
for name, t in zip(names, [x, q_all, q, w, heads_out, concat, y]):
    print(f"{str(tuple(t.shape)):15s} {name}")
print("d_k =", mha.d_k)
print("same as mha(x):", torch.equal(y, y_module), torch.equal(w, w_module))

# %% [markdown] lang="ko"
# 나누기와 합치기는 숫자를 하나도 옮기지 않습니다. 보는 방식만 바꿀 뿐입니다. 합친 결과가 원래
# 텐서와 똑같은지, 두 번째 헤드가 정말 열 16..31인지 확인합니다. 이 노트북에서 헤드는 강의처럼 1번부터
# 세고, 코드의 인덱스와 열 번호는 파이썬처럼 0부터 셉니다. 그래서 두 번째 헤드는 `q[:, 1]`입니다.

# %% [markdown] lang="en"
# Splitting and merging move no numbers; they only change how we index them. Check that merging
# gives back the very same tensor, and that the second head really is columns 16..31. In this
# notebook heads are counted from 1, as in the lesson, while code indices and column numbers count
# from 0, as Python does: the second head is `q[:, 1]`.

# %%
print("merge(split(q_all)) == q_all:", torch.equal(mha.merge_heads(mha.split_heads(q_all)), q_all))
print("head 2 == columns 16..31:    ", torch.equal(q[:, 1], q_all[:, :, 16:32]))

# %% [markdown] lang="ko"
# ## 헤드마다 자기 행렬
#
# 논문은 헤드 $i$마다 $D \times d_k$ 크기의 $W_Q^{(i)}$가 따로 있다고 씁니다. 코드에는 $D \times D$
# 행렬 하나뿐입니다. 그 큰 행렬에서 헤드 3(코드의 인덱스 `i = 2`)의 몫을 잘라 내 그 헤드의 쿼리만 따로 계산하고,
# `split_heads`가 준 값과 비교합니다. `nn.Linear`는 행렬 `weight`를 (출력, 입력) 순서로 저장하므로
# 자를 곳은 행입니다.

# %% [markdown] lang="en"
# ## Each head has its own matrix
#
# The paper gives each head $i$ its own $W_Q^{(i)}$ of size $D \times d_k$; the code has a single
# $D \times D$ matrix. Cut head 3's share (code index `i = 2`) out of the big matrix, compute that
# head's queries on their own, and compare with what `split_heads` gave. `nn.Linear` stores its matrix `weight` as (out, in), so
# the share is a block of rows.

# %%
i = 2  # ko: 코드의 인덱스 2, 곧 헤드 3 # en: code index 2, that is head 3
rows = slice(i * mha.d_k, (i + 1) * mha.d_k)
W_Q_i = mha.W_Q.weight[rows].T  # ko: (D, d_k): 헤드 3의 W_Q^(3) # en: (D, d_k): head 3's W_Q^(3)
b_Q_i = mha.W_Q.bias[rows]
with torch.no_grad():
    q_i = x @ W_Q_i + b_Q_i  # (B, L, d_k)
print(f"W_Q^({i + 1}):", tuple(W_Q_i.shape), " largest difference:", f"{(q_i - q[:, i]).abs().max().item():.1e}")

# %% [markdown] lang="ko"
# 차이는 0이거나, 계산 순서에 따라 float32의 반올림 오차($10^{-7}$ 정도)입니다. "헤드마다 자기
# 행렬"과 "큰 행렬 하나"는 같은 계산입니다.
#
# ## 파라미터 세기
#
# $W_Q$, $W_K$, $W_V$, $W_O$는 모두 $D \times D$이고 길이 $D$의 편향이 붙으므로 식으로는
# $4D^2 + 4D$입니다. 헤드 수를 1, 2, 4, 8로 바꿔 모듈을 만들고 실제로 세어 봅니다. 강의의 두 식과
# 비교해 보세요.

# %% [markdown] lang="en"
# The difference is 0, or float32 rounding (around $10^{-7}$) if the operations run in another
# order. "Each head has its own matrix" and "one big matrix" are the same computation.
#
# ## Counting the parameters
#
# $W_Q$, $W_K$, $W_V$ and $W_O$ are each $D \times D$ with a bias of length $D$, so the formula
# says $4D^2 + 4D$. Build the module with 1, 2, 4 and 8 heads and count for real. Compare with the
# lesson's two equations.

# %%
def n_params(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


for d in (64, 512):
    counted = {n_heads: n_params(MultiHeadAttention(d, n_heads)) for n_heads in (1, 2, 4, 8)}
    print(f"D={d}: 4D²+4D = {4 * d * d + 4 * d:,}   counted by head count:", {n: f"{c:,}" for n, c in counted.items()})

# %% [markdown] lang="ko"
# 헤드 수가 식에서 빠지는 이유는 $W_Q$ 하나만 봐도 알 수 있습니다. 헤드 하나의 $W_Q^{(i)}$는 $D \times d_k$이고,
# 그것이 $h$개입니다. $D = 512$에서 표로 만들어 보면 헤드가 늘수록 하나하나가 그만큼 좁아져 곱은
# 늘 $D^2$입니다.

# %% [markdown] lang="en"
# Why $h$ drops out is visible in $W_Q$ alone: one head's $W_Q^{(i)}$ is $D \times d_k$, and there
# are $h$ of them. Tabulated for $D = 512$: more heads, each one proportionally narrower, and the
# product is always $D^2$.

# %%
d = 512
for n_heads in (1, 2, 4, 8, 16):
    d_k = d // n_heads
    print(f"h={n_heads:2d}  d_k={d_k:3d}  one head D·d_k={d * d_k:7,}  all heads h·D·d_k={n_heads * d * d_k:,}  D²={d * d:,}")

# %% [markdown] lang="ko"
# 공짜는 아닙니다. 가중치 텐서 $(B, h, L, L)$은 헤드 수에 비례해 커집니다. 길이 128인 시퀀스
# 하나로 가중치 표의 칸 수를 세어 봅니다.

# %% [markdown] lang="en"
# It is not free, though: the weight tensor $(B, h, L, L)$ grows with the number of heads. Count
# its entries for one sequence of length 128.

# %%
x_long = torch.randn(1, 128, 64)
for n_heads in (1, 2, 4, 8):
    with torch.no_grad():
        _, w_long = MultiHeadAttention(64, n_heads)(x_long)
    print(f"h={n_heads}: weights {tuple(w_long.shape)} = {w_long.numel():,} entries")

# %% [markdown] lang="ko"
# ## PyTorch와 비교
#
# PyTorch의 `nn.MultiheadAttention`도 같은 계산을 합니다. 다만 $W_Q$, $W_K$, $W_V$를
# `in_proj_weight`라는 $3D \times D$ 행렬 하나에 위아래로 쌓아 둡니다. 우리 파라미터를 그 자리에
# 복사한 뒤 같은 입력을 넣고 출력과 헤드별 가중치의 최대 차이를 봅니다.
#
# 마스크 규칙은 반대입니다. 우리 함수에서 `True`는 "볼 수 있다"이고, `nn.MultiheadAttention`의
# `attn_mask`에서 `True`는 "막는다"입니다. 그래서 인과 마스크를 `~`로 뒤집어 넘깁니다.

# %% [markdown] lang="en"
# ## Compare with PyTorch
#
# PyTorch's `nn.MultiheadAttention` does the same computation, but stacks $W_Q$, $W_K$ and $W_V$
# into one $3D \times D$ matrix, `in_proj_weight`. Copy our parameters into place, feed the same
# input, and look at the largest difference in the outputs and in the per-head weights.
#
# The mask convention is the opposite: in our function `True` means "may attend"; in
# `nn.MultiheadAttention`'s `attn_mask`, `True` means "blocked". So the causal mask goes in
# flipped with `~`.

# %%
ref = nn.MultiheadAttention(D, h, batch_first=True).eval()
with torch.no_grad():
    ref.in_proj_weight.copy_(torch.cat([mha.W_Q.weight, mha.W_K.weight, mha.W_V.weight]))  # (3D, D)
    ref.in_proj_bias.copy_(torch.cat([mha.W_Q.bias, mha.W_K.bias, mha.W_V.bias]))
    ref.out_proj.weight.copy_(mha.W_O.weight)
    ref.out_proj.bias.copy_(mha.W_O.bias)

causal = torch.ones(L, L, dtype=torch.bool).tril()  # ko: True = 볼 수 있음 # en: True = may attend
with torch.no_grad():
    for label, ours_mask, their_mask in (("no mask", None, None), ("causal ", causal, ~causal)):
        ours, w_ours = mha(x, mask=ours_mask)
        theirs, w_theirs = ref(x, x, x, attn_mask=their_mask, average_attn_weights=False)
        print(f"{label}  output diff {(ours - theirs).abs().max().item():.1e}"
              f"   weights diff {(w_ours - w_theirs).abs().max().item():.1e}   weights {tuple(w_theirs.shape)}")

# %% [markdown] lang="ko"
# ## 학습 전의 헤드들
#
# 헤드의 역할은 누가 정해 주지 않습니다. 모든 헤드가 무작위 값에서 출발합니다. 길이 6인 무작위
# 시퀀스 하나를 새 모듈($D = 64$, 헤드 4개)에 넣고 헤드마다 $6 \times 6$ 가중치 표를 그립니다.
# 퍼진 정도는 강의처럼 엔트로피로 잽니다. 한 키에 몰리면 0이고, 고르게 나누면 $\log L$입니다.

# %% [markdown] lang="en"
# ## Heads before training
#
# Nobody assigns heads their roles; every head starts from random numbers. Feed one random
# sequence of length 6 to a fresh module ($D = 64$, 4 heads) and draw each head's $6 \times 6$
# weight table. As in the lesson, entropy measures the spread: 0 when all weight goes to one key,
# $\log L$ when it is spread evenly.

# %%
torch.manual_seed(1)
L_small = 6
mha_fresh = MultiHeadAttention(64, 4).eval()
x_small = torch.randn(1, L_small, 64)
with torch.no_grad():
    _, w_small = mha_fresh(x_small)  # (1, h, L, L)

entropy = -(w_small * w_small.log()).sum(-1).mean(-1)[0]  # ko: 헤드마다 쿼리 평균 # en: per head, averaged over queries
print("entropy per head:", [round(e, 3) for e in entropy.tolist()], "  uniform log L =", round(math.log(L_small), 3))
print("largest weight per head:", [round(m, 3) for m in w_small[0].amax(dim=(-2, -1)).tolist()], "  uniform 1/L =", round(1 / L_small, 3))

fig, axes = plt.subplots(1, 4, figsize=(9, 2.6), layout="constrained")
for j, ax in enumerate(axes):
    im = ax.imshow(w_small[0, j], vmin=0, vmax=w_small.max().item(), cmap="Blues")
    ax.set_title(f"헤드 {j + 1}")  # ko
    ax.set_title(f"head {j + 1}")  # en
    ax.set_xlabel("키 위치")  # ko
    ax.set_xlabel("key position")  # en
    ax.set_xticks(range(L_small))
    ax.set_yticks(range(L_small))
axes[0].set_ylabel("쿼리 위치")  # ko
axes[0].set_ylabel("query position")  # en
fig.colorbar(im, ax=axes, shrink=0.8, label="가중치")  # ko
fig.colorbar(im, ax=axes, shrink=0.8, label="weight")  # en
plt.show()

# %% [markdown] lang="ko"
# 네 헤드의 표가 서로 조금씩 다르지만, 엔트로피는 모두 $\log L$에 가깝습니다. 학습하기 전에는
# 어느 헤드도 특정한 키를 골라 보지 않습니다. 강의의 "헤드는 무엇을 배웠나" 그림과 표에서 학습한
# 헤드의 엔트로피와 비교해 보세요.
#
# ## 해 보기
#
# - `MultiHeadAttention(64, 6)`을 만들어 오류 메시지를 읽어 보세요. $D = 64$에서 쓸 수 있는 헤드
#   수는 무엇인가요?
# - 마지막 그림에서 `x_small`에 4를 곱해 보세요. 엔트로피가 어떻게 바뀌나요? 3강에서 본 소프트맥스
#   포화와 연결해 보세요.
# - PyTorch 비교에서 `~causal` 대신 `causal`을 `nn.MultiheadAttention`에 넘기면 무엇이 달라지나요?
#   `w_theirs[0, 0]`을 출력해 어느 칸이 0인지 보세요. 마지막 행에는 왜 `nan`이 나올까요?

# %% [markdown] lang="en"
# The four tables differ a little, but every entropy is close to $\log L$: before training, no
# head picks out a particular key. Compare with the entropies of the trained heads in the
# lesson's "What did the heads learn?" figure and table.
#
# ## Try it
#
# - Build `MultiHeadAttention(64, 6)` and read the error message. Which head counts are possible
#   for $D = 64$?
# - In the last figure, multiply `x_small` by 4. What happens to the entropies? Connect it to the
#   softmax saturation of lesson 3.
# - In the PyTorch comparison, pass `causal` instead of `~causal` to `nn.MultiheadAttention`.
#   What changes? Print `w_theirs[0, 0]` and see which entries are 0. Why is the last row `nan`?
