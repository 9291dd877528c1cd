# %% [markdown] lang="ko"
# # 3강 실습: 스케일드 닷프로덕트 어텐션, 한 단계씩
#
# 이 노트북은 강좌 패키지의 `scaled_dot_product_attention`을 그대로 가져와 작은 예제로 돌려 봅니다.
# 목표는 세 가지입니다.
#
# 1. 다섯 단계(점수 → $\sqrt{d_k}$로 나누기 → 마스크 → 소프트맥스 → 밸류 섞기)를 눈으로 따라갑니다.
# 2. 우리 함수가 PyTorch의 `F.scaled_dot_product_attention`과 같은 값을 내는지 확인하고, 다른 값을 내는
#    한 경우(키가 모두 막힌 행)도 봅니다.
# 3. $\sqrt{d_k}$로 나누지 않으면 $d_k$가 커질수록 소프트맥스가 포화되는 것을 봅니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 3 lab: Scaled dot-product attention, step by step
#
# This notebook takes the course package's `scaled_dot_product_attention` as it is and runs it on
# small examples. Three goals:
#
# 1. Follow the five steps (scores → divide by $\sqrt{d_k}$ → mask → softmax → blend the values).
# 2. Check that our function gives the same values as PyTorch's `F.scaled_dot_product_attention`,
#    and see the one case where it does not (a row with every key blocked).
# 3. See the softmax saturate as $d_k$ grows when the scores are not divided by $\sqrt{d_k}$.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import Tensor

torch.manual_seed(0)
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 패키지의 함수
#
# 아래 두 함수(`check_mask`, `scaled_dot_product_attention`)는 강좌 패키지 `tutorial_code/attention.py`에 있는
# 코드 그대로입니다.
# 주석의 step 1~5가 강의 "코드" 절에서 읽는 다섯 단계입니다.

# %% [markdown] lang="en"
# ## The package's function
#
# The two functions below (`check_mask`, `scaled_dot_product_attention`) are the course package's
# code as it stands in `tutorial_code/attention.py`. The comments' steps 1–5 are the five steps read in the lesson's
# "Code" section.

# %%
# [[code:attention.scaled_dot_product_attention]]

# %% [markdown] lang="ko"
# ## 작은 예제: 쿼리 3개, 키 4개
#
# $d_k = 4$인 쿼리 3개와 키·밸류 4개씩을 무작위로 만들고, 가중치의 각 행이 합 1인지 확인합니다.

# %% [markdown] lang="en"
# ## A small example: 3 queries, 4 keys
#
# Make 3 random queries and 4 keys and values of width $d_k = 4$, and check that each row of the
# weights sums to 1.

# %%
q = torch.randn(3, 4)
k = torch.randn(4, 4)
v = torch.randn(4, 4)
out, w = scaled_dot_product_attention(q, k, v)
print("weights:\n", w.round(decimals=3))
print("row sums:", w.sum(-1))
print("output shape:", tuple(out.shape))

# %% [markdown] lang="ko"
# ## PyTorch와 비교
#
# 같은 입력을 `F.scaled_dot_product_attention`에 넣고 출력의 최대 차이를 봅니다. 마스크 규칙도
# 같습니다. `True`는 "볼 수 있다"입니다.

# %% [markdown] lang="en"
# ## Compare with PyTorch
#
# Feed the same inputs to `F.scaled_dot_product_attention` and look at the largest difference. The
# mask convention is the same: `True` means "may attend".

# %%
causal = torch.ones(3, 4, dtype=torch.bool).tril()  # ko: 아래 삼각형만 볼 수 있음 # en: only the lower triangle may attend
for mask in (None, causal):
    ours, _ = scaled_dot_product_attention(q, k, v, mask=mask)
    theirs = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    print("mask" if mask is not None else "no mask", (ours - theirs).abs().max().item())

# %% [markdown] lang="ko"
# 한 가지는 다릅니다. 어떤 쿼리의 키를 모두 막으면, 우리 함수에서는 그 행의 점수가 모두 $-\infty$라
# 소프트맥스가 $0/0$을 계산해 `NaN`이 나옵니다(함수의 docstring에도 적혀 있습니다). PyTorch의
# `F.scaled_dot_product_attention`은 2.5부터 그런 행을 경고 없이 0으로 돌려줍니다. 3강 "코드" 절의
# 접은 글 "키가 모두 막힌 행"이 같은 이야기를 `nn.MultiheadAttention`까지 넣어 정리합니다. 첫 번째 쿼리(코드에서는
# 행 0)의 키를 모두 막아 두 함수를 비교해 봅시다.

# %% [markdown] lang="en"
# One thing differs. Block every key of a query, and in our function that row's scores are all
# $-\infty$, so the softmax computes $0/0$ and gives `NaN` (the function's docstring says so too).
# PyTorch's `F.scaled_dot_product_attention`, though, has returned such a row
# as zeros, without a warning, since version 2.5. The folded note "A row with every key blocked" in
# the "Code" section of lesson 3 sums this up, `nn.MultiheadAttention` included. Block every key of
# the first query (row 0 in code) and compare.

# %%
blocked = causal.clone()
blocked[0] = False  # ko: 첫 번째 쿼리(행 0)는 어떤 키도 볼 수 없음 # en: the first query (row 0) may attend to no key
ours, _ = scaled_dot_product_attention(q, k, v, mask=blocked)
theirs = F.scaled_dot_product_attention(q, k, v, attn_mask=blocked)
print("torch", torch.__version__)
print("ours, row 0:   ", ours[0].tolist())
print("PyTorch, row 0:", theirs[0].tolist())

# %% [markdown] lang="ko"
# ## 나누지 않으면: 소프트맥스 포화
#
# 성분이 표준정규분포인 쿼리와 키의 내적은 분산이 $d_k$입니다. $d_k$를 키우면서 나누지 않은 점수와
# 나눈 점수의 최대 가중치(1000개 행의 평균)를 비교합니다.

# %% [markdown] lang="en"
# ## Without the division: the softmax saturates
#
# With standard normal components, the dot product of a query and a key has variance $d_k$.
# Grow $d_k$ and compare the largest weight (averaged over 1000 rows) with and without the division.

# %%
dims = [4, 16, 64, 256, 1024]
raw_max, scaled_max = [], []
for d_k in dims:
    qs, ks = torch.randn(1000, d_k), torch.randn(1000, 8, d_k)
    scores = (ks @ qs.unsqueeze(-1)).squeeze(-1)  # ko: (1000, 8) 점수 # en: (1000, 8) scores
    raw_max.append(torch.softmax(scores, -1).max(-1).values.mean().item())
    scaled_max.append(torch.softmax(scores / math.sqrt(d_k), -1).max(-1).values.mean().item())
    print(f"d_k={d_k:5d}  raw std={scores.std():6.2f}  max weight raw={raw_max[-1]:.3f}  scaled={scaled_max[-1]:.3f}")

fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(dims, raw_max, "o-", label=r"$QK^\top$")
ax.plot(dims, scaled_max, "s-", label=r"$QK^\top/\sqrt{d_k}$")
ax.set_xscale("log", base=2)
ax.set_xlabel(r"$d_k$")
ax.set_ylabel("평균 최대 가중치")  # ko
ax.set_ylabel("mean largest weight")  # en
ax.set_title("나누지 않으면 가중치가 한 키에 몰린다")  # ko
ax.set_title("Without the division the weight piles onto one key")  # en
ax.legend()
plt.show()

# %% [markdown] lang="ko"
# ## 해 보기
#
# - `q`에 10을 곱하고 가중치가 어떻게 바뀌는지 보세요. 왜 그런지 3강의 "왜 √dₖ인가"와 연결해 보세요.
# - 이번에는 첫 번째 키(열 0)를 모든 쿼리에서 막아 보세요(`blocked = causal.clone()` 다음 `blocked[:, 0] = False`).
#   패딩을 문장 앞에 둘 때 생기는 마스크입니다(4강). 인과 마스크 때문에 어느 쿼리가 볼 키를 모두 잃나요?
#   두 함수의 그 행을 위처럼 비교해 보세요.

# %% [markdown] lang="en"
# ## Try it
#
# - Multiply `q` by 10 and watch the weights change. Connect it to lesson 3's "Why √dₖ".
# - Now block the first key (column 0) for every query (`blocked = causal.clone()`, then `blocked[:, 0] = False`): the
#   mask that padding at the front of a sentence makes (lesson 4). Because of the causal mask, which
#   query loses every key? Compare that row from both functions as above.
