# %% [markdown] lang="ko"
# # 1강 실습: 왜 어텐션인가
#
# 이 노트북은 1강의 주장을 작은 실험으로 직접 확인합니다. 목표는 세 가지입니다.
#
# 1. 문맥 벡터의 크기는 문장 길이와 상관없이 같고, 첫 단어의 흔적은 금방 흐려진다는 것을 강의의 GRU
#    실험으로 봅니다.
# 2. 문장 전체를 벡터 하나에 눌러 담는 모델과, 은닉 상태를 모두 남겨 두고 가중치로 섞는 모델을 같은
#    과제로 몇 초 동안 학습시켜 비교합니다. 벡터 하나에서는 어떤 정보가 빠지는지 숫자로 확인합니다.
# 3. 어텐션 가중치 한 행을 읽습니다. 가중치는 0과 1 사이에 있고 합이 1입니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 1 lab: Why attention
#
# This notebook checks the claims of lesson 1 with small experiments. Three goals:
#
# 1. See with the lesson's GRU demo that the context vector has the same size whatever the
#    sentence length, and that the first word's trace fades quickly.
# 2. Train two models on the same task for a few seconds: one squeezes the whole sentence into one
#    vector, the other keeps every hidden state and blends them by weights. See in numbers what
#    gets lost in the single vector.
# 3. Read one row of attention weights: each weight lies between 0 and 1, and the row sums to 1.
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
torch.set_num_threads(1)  # ko: 아주 작은 모델이라 스레드 하나가 더 빠르다 # en: the models are tiny: one thread is faster
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 벡터 하나로는 왜 모자랄까
#
# 강의의 "실행해 보기" 코드 그대로입니다. 학습하지 않은 GRU에 길이가 다른 무작위 문장을 넣고, 마지막
# 은닉 상태(문맥 벡터)의 모양과, 첫 단어만 바꿨을 때 문맥 벡터가 움직인 거리를 출력합니다. 강의에 적힌
# 설명과 비교해 보세요.

# %% [markdown] lang="en"
# ## Why one vector is not enough
#
# This is the lesson's "Run this" code unchanged. An untrained GRU reads random sentences of
# different lengths; we print the shape of the last hidden state (the context vector) and how far
# it moves when only the first word changes. Compare with the lesson's explanation.

# %%
torch.manual_seed(0)
rnn = torch.nn.GRU(input_size=8, hidden_size=16, batch_first=True)
for length in (5, 10, 20, 50):
    words = torch.randn(1, length, 8)  # ko: 단어 벡터 length개 (무작위) # en: length random word vectors
    _, h = rnn(words)  # ko: 마지막 은닉 상태 = 문맥 벡터 # en: last hidden state = the context vector
    changed = words.clone()
    changed[0, 0] = torch.randn(8)  # ko: 첫 단어만 바꾸기 # en: change the first word only
    _, h2 = rnn(changed)
    print(length, tuple(h.shape), f"{(h2 - h).norm().item():.2e}")

# %% [markdown] lang="ko"
# ## 패키지의 함수
#
# 아래에서 만들 어텐션 모델은 강좌 패키지의 `scaled_dot_product_attention`을 씁니다. 다음 셀에는
# `tutorial_code/attention.py`에 있는 이 함수와, 이 함수가 마스크를 검사할 때 부르는 `check_mask`가 코드
# 그대로 들어 있습니다. 점수를 어떻게 매기는지는 2강과 3강에서 자세히 봅니다. 지금은 강의의 세 단계만 기억하면 됩니다. 맞는 정도에 점수를 매기고, 소프트맥스로 합이
# 1인 가중치를 만들고, 그 가중치로 벡터들을 섞습니다.

# %% [markdown] lang="en"
# ## The package's function
#
# The attention model below uses the course package's `scaled_dot_product_attention`. The next cell
# holds it as it stands in `tutorial_code/attention.py`, with the `check_mask` it calls to check a
# mask. How it scores is the subject of
# lessons 2 and 3; for now the lesson's three steps are enough: score how well things match, turn
# the scores into weights that sum to 1 with a softmax, and blend the vectors by those weights.

# %%
# [[code:attention.scaled_dot_product_attention]]

# %% [markdown] lang="ko"
# ## 단어장 과제
#
# 문장 하나는 (한국어 단어, 영어 단어) 짝 $L$개가 적힌 작은 단어장입니다. 단어는 16가지 중에서 뽑은
# 번호이고, 짝은 문장마다 새로 정합니다. 그래서 외워 둘 수가 없고, 답은 그 문장 안에만 있습니다.
# 모델은 짝을 하나씩 다 읽은 다음 한국어 단어 하나를 질문으로 받고, 그 짝인 영어 단어를 답해야 합니다.
# 번역기의 디코더가 "ate"를 쓸 때 원문의 "먹었다"를 찾아야 하는 것과 같은 일입니다.

# %% [markdown] lang="en"
# ## A phrase-book task
#
# Each sentence is a small phrase book with $L$ pairs (Korean word, English word). Words are ids
# drawn from 16, and the pairs are drawn anew for every sentence, so nothing can be memorised: the
# answer is only in the sentence itself. The model reads the pairs one by one, then gets one
# Korean word as a question and must answer its English partner. It is the job a translator's
# decoder does when it must find the Korean verb at the end of the source to write "ate".

# %%
N_WORDS = 16  # ko: 한쪽 언어의 단어 종류 수 # en: number of distinct words in each language
HIDDEN = 32  # ko: 은닉 상태의 크기, 곧 문맥 벡터의 크기 # en: size of a hidden state, so of the context vector


def make_batch(n: int, length: int, gen: torch.Generator | None = None):
    # ko: 짝 length개짜리 문장 n개와 질문 하나씩. 한 문장 안의 한국어 단어는 서로 다르다.
    # en: n sentences of `length` pairs and one question each; Korean words differ within a sentence.
    ko_ids = torch.stack([torch.randperm(N_WORDS, generator=gen)[:length] for _ in range(n)])  # (n, L)
    en_ids = torch.randint(N_WORDS, (n, length), generator=gen)  # (n, L)
    asked = torch.randint(length, (n,), generator=gen)  # ko: 몇 번째 짝을 묻는가 # en: which pair is asked about
    rows = torch.arange(n)
    x = torch.cat([F.one_hot(ko_ids, N_WORDS), F.one_hot(en_ids, N_WORDS)], dim=-1).float()  # (n, L, 2·N_WORDS)
    question = F.one_hot(ko_ids[rows, asked], N_WORDS).float()  # (n, N_WORDS)
    return x, question, en_ids[rows, asked], asked


x, question, answer, asked = make_batch(1, 5, torch.Generator().manual_seed(0))
pairs = x[0].view(5, 2, N_WORDS).argmax(-1)  # ko: (L, 2) 짝마다 (한국어, 영어) 번호 # en: (L, 2) ids (Korean, English) per pair
print("pairs (ko, en):", pairs.tolist())
print("question:", question.argmax().item(), " answer:", answer.item(), " pair no.", asked.item() + 1)

# %% [markdown] lang="ko"
# ## 두 모델: 차이는 한 줄
#
# 두 모델 모두 같은 GRU 인코더로 짝을 하나씩 읽습니다. 다른 것은 질문에 답할 때 무엇을 보느냐뿐입니다.
#
# - **문맥 벡터 모델**은 마지막 은닉 상태 하나만 봅니다. 강의에서 본 RNN 인코더–디코더와 같습니다.
# - **어텐션 모델**은 은닉 상태를 모두 남겨 둡니다. 질문으로 만든 벡터(쿼리)가 상태마다 점수를 매기고,
#   소프트맥스 가중치로 상태들을 섞어 씁니다. 답할 때마다 원문 전체를 다시 보고 가중치로 섞는 방식은
#   Bahdanau et al. (2015)에서 왔지만, 점수를 매기는 방법은 다릅니다. 그 논문은 은닉층 하나짜리 작은
#   신경망으로 점수를 매겼고(덧셈 어텐션), 이 모델은 트랜스포머처럼 쿼리와 키(`W_K`를 곱한 은닉 상태)의
#   내적을 벡터 크기의 제곱근으로 나눠 매깁니다. 이 내적 점수는 2강과 3강에서 자세히 봅니다.
#
# 두 모델을 같은 데이터로, 같은 횟수(300번)만 학습시킵니다. 문장 길이는 배치마다 2~12 사이에서 고릅니다.

# %% [markdown] lang="en"
# ## Two models, one line apart
#
# Both read the pairs one by one with the same GRU encoder. They differ only in what they look at
# to answer:
#
# - the **context-vector model** sees the last hidden state only, like the RNN encoder–decoder of
#   the lesson;
# - the **attention model** keeps every hidden state. A vector made from the question (the query)
#   scores each state, and the states are blended by the softmax weights. Looking at the whole
#   source again for every answer and blending it by weights comes from Bahdanau et al. (2015), but
#   the scores are computed differently: that paper scored with a small network of one hidden layer
#   (additive attention), while this model scores as the Transformer does, with the dot product of
#   the query and a key (a hidden state times `W_K`) divided by the square root of the vector size.
#   Lessons 2 and 3 cover these dot-product scores.
#
# Both train on the same data for the same 300 steps; each batch has a sentence length between 2
# and 12.

# %%
class Reader(nn.Module):
    def __init__(self, attend: bool):
        super().__init__()
        self.attend = attend
        self.encoder = nn.GRU(2 * N_WORDS, HIDDEN, batch_first=True)
        self.W_Q = nn.Linear(N_WORDS, HIDDEN)  # ko: 질문 → 쿼리 # en: question → query
        self.W_K = nn.Linear(HIDDEN, HIDDEN)  # ko: 은닉 상태 → 점수를 매길 키 # en: hidden state → the key it is scored by
        self.head = nn.Sequential(nn.Linear(2 * HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, N_WORDS))

    def forward(self, x: Tensor, question: Tensor) -> tuple[Tensor, Tensor | None]:
        states, last = self.encoder(x)  # (n, L, HIDDEN), (1, n, HIDDEN)
        q = self.W_Q(question)  # (n, HIDDEN)
        if self.attend:
            # ko: 모든 상태를 보고 가중치로 섞는다
            # en: look at every state and blend them by weight
            context, w = scaled_dot_product_attention(q[:, None], self.W_K(states), states)  # (n, 1, HIDDEN), (n, 1, L)
            context, w = context[:, 0], w[:, 0]
        else:
            context, w = last[0], None  # ko: 문맥 벡터: 마지막 은닉 상태 하나 # en: the context vector: the last hidden state only
        return self.head(torch.cat([context, q], dim=-1)), w  # ko: 단어 16개의 로짓 # en: logits over the 16 words


NAMES = {False: "문맥 벡터", True: "어텐션"}  # ko
NAMES = {False: "context vector", True: "attention"}  # en


def train(attend: bool, steps: int = 300) -> Reader:
    torch.manual_seed(0)
    model = Reader(attend)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        length = int(torch.randint(2, 13, ()))  # ko: 짝 2~12개 # en: 2 to 12 pairs
        x, question, answer, _ = make_batch(64, length)
        logits, _ = model(x, question)
        loss = F.cross_entropy(logits, answer)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"{NAMES[attend]}: loss {loss.item():.3f}")
    return model


models = {attend: train(attend) for attend in (False, True)}

# %% [markdown] lang="ko"
# ## 길이별 정확도
#
# 처음 보는 문장 1000개씩으로 길이마다 정확도를 잽니다. 무작위로 찍으면 1/16 = 0.0625입니다. 마지막 두
# 열은 문맥 벡터 모델을 들여다본 것입니다. "문장 속"은 모델의 답이 그 문장에 나온 영어 단어 중 하나였던
# 비율이고, 1/L은 문장 속 영어 단어 중 하나를 무작위로 골랐을 때의 정확도입니다.

# %% [markdown] lang="en"
# ## Accuracy by length
#
# Each length is measured on 1000 new sentences. Blind guessing scores 1/16 = 0.0625. The last two
# columns look inside the context-vector model: "in sentence" is how often its answer was one of
# the English words of that sentence, and 1/L is what picking one of them at random would score.

# %%
LENGTHS = [2, 4, 8, 12]
accuracy = {False: [], True: []}
print("  L  문맥 벡터     어텐션      문장 속     1/L")  # ko
print("  L    context  attention  in sentence     1/L")  # en
with torch.no_grad():
    for length in LENGTHS:
        x, question, answer, _ = make_batch(1000, length, torch.Generator().manual_seed(length))
        guesses = {attend: model(x, question)[0].argmax(-1) for attend, model in models.items()}
        for attend, guess in guesses.items():
            accuracy[attend].append((guess == answer).float().mean().item())
        en_words = x[..., N_WORDS:].argmax(-1)  # ko: (1000, L) 문장 속 영어 단어 # en: (1000, L) the sentence's English words
        in_sentence = (en_words == guesses[False][:, None]).any(-1).float().mean().item()
        print(f"{length:3d}  {accuracy[False][-1]:9.3f}  {accuracy[True][-1]:9.3f}  {in_sentence:11.3f}  {1 / length:6.3f}")

fig, ax = plt.subplots(figsize=(5, 3))
for attend, marker in ((False, "o-"), (True, "s-")):
    ax.plot(LENGTHS, accuracy[attend], marker, label=NAMES[attend])
ax.axhline(1 / N_WORDS, color="gray", ls=":", label="1/16")
ax.set_ylim(0, 1.05)
ax.set_xlabel("문장 길이 L (짝의 수)")  # ko
ax.set_xlabel("sentence length L (pairs)")  # en
ax.set_ylabel("정확도")  # ko
ax.set_ylabel("accuracy")  # en
ax.set_title("벡터 하나로는 길수록 더 많이 놓친다")  # ko
ax.set_title("One vector misses more as the sentence grows")  # en
ax.legend()
plt.show()

# %% [markdown] lang="ko"
# 두 모델은 같은 인코더를 썼고, 학습 횟수도 같았습니다. 그런데 문맥 벡터 모델은 길이가 늘수록 틀리는
# 일이 많아지고, 어텐션 모델은 길이와 상관없이 거의 다 맞힙니다. "문장 속" 열을 보면 문맥 벡터 모델의
# 답은 거의 언제나 그 문장에 나온 영어 단어입니다. 어떤 단어들이 나왔는지는 벡터 하나에 남았지만,
# 어느 한국어 단어와 짝이었는지는 대부분 빠진 것입니다. 그래서 정확도가 1보다는 1/L 쪽에 훨씬
# 가깝습니다. 이것이 강의에서 말한 병목입니다. 다만 이 숫자는 짧게 학습한 작은 모델의 것입니다. 벡터를
# 키우거나 더 오래 학습하면 어떻게 되는지는 맨 아래 "해 보기"에서 직접 확인해 보세요.

# %% [markdown] lang="en"
# Both models used the same encoder and trained for the same number of steps. Yet the
# context-vector model gets more wrong as sentences grow, while the attention model gets nearly
# everything right at every length. The "in sentence" column shows that the context-vector model
# almost always answers with an English word of that sentence: which words appeared survived in the
# single vector, but which Korean word each one belonged to mostly did not. So its accuracy stays
# much closer to 1/L than to 1. That is the bottleneck of the lesson. These are the numbers of a small
# model trained briefly, though; what a bigger vector or longer training does is yours to find out
# in "Try it" at the end.

# %% [markdown] lang="ko"
# ## 가중치 한 행 읽기
#
# 어텐션 모델에 짝 8개짜리 문장 하나를 넣고, 질문이 은닉 상태 8개에 준 가중치를 봅니다. 강의의 "손으로
# 풀어 보기"에서 "ate" 행을 읽은 것처럼 확인해 보세요. 가중치는 모두 0과 1 사이인가요? 합은 1인가요?
# 가장 큰 몫은 질문한 짝이 받나요? 다른 짝도 조금씩 받나요?

# %% [markdown] lang="en"
# ## Reading one row of weights
#
# Give the attention model one sentence of 8 pairs and look at the weights the question puts on
# the 8 hidden states. Read them the way the lesson's worked example read the row of "ate": is
# every weight between 0 and 1? Do they sum to 1? Does the asked pair get the largest share, and
# do the others still get a little?

# %%
x, question, answer, asked = make_batch(1, 8, torch.Generator().manual_seed(1))
with torch.no_grad():
    logits, w = models[True](x, question)
w = w[0]  # (L,)
print("asked pair:", asked.item() + 1, " answer:", answer.item(), " model says:", logits.argmax().item())
print("weights:", " ".join(f"{v:.3f}" for v in w.tolist()))
print(f"smallest {w.min().item():.1e}  largest {w.max().item():.3f}  sum {w.sum().item():.6f}")

fig, ax = plt.subplots(figsize=(5, 2.6))
colors = ["tab:orange" if i == asked.item() else "tab:blue" for i in range(len(w))]
ax.bar(range(1, len(w) + 1), w.tolist(), color=colors)
ax.set_ylim(0, 1)
ax.set_xlabel("짝 번호 (주황: 질문한 짝)")  # ko
ax.set_xlabel("pair (orange: the one asked about)")  # en
ax.set_ylabel("어텐션 가중치")  # ko
ax.set_ylabel("attention weight")  # en
ax.set_title("질문 하나가 은닉 상태 8개에 준 가중치")  # ko
ax.set_title("Weights one question gives the 8 hidden states")  # en
plt.show()

# %% [markdown] lang="ko"
# 이 과제에서는 맞는 짝이 정확히 하나라서 가중치가 거의 한 곳에 몰립니다. 그래도 가장 작은 가중치조차
# 0은 아닙니다. 어텐션은 언제나 모든 상태를 조금씩 섞습니다. 그리고 이 가중치도 사람이 정해 준 것이
# 아닙니다. 모델은 질문과 정답만 보고 학습했고, 어느 짝을 봐야 하는지는 아무도 알려 주지 않았습니다.
# 강의의 장난감 번역기가 "ate"와 "먹었다"의 정렬을 스스로 배운 것과 같습니다.
#
# ## 해 보기
#
# - GRU 실험에서 `changed[0, 0]`을 `changed[0, -1]`로 바꿔 마지막 단어를 바꿔 보세요. 문맥 벡터가
#   움직이는 거리가 첫 단어를 바꿀 때와 어떻게 다른가요?
# - `HIDDEN`을 128로, `train`의 `steps`를 1500으로 늘려 처음부터 다시 실행해 보세요(학습이 몇 배 오래
#   걸립니다). 문맥 벡터 모델은 얼마나 나아지나요? 128개의 숫자면 짝 두 개쯤은 충분히 담을 수 있을
#   텐데, 그래도 짧은 문장에서 틀린다면 무엇이 어려운 걸까요?
# - `make_batch`의 `torch.randperm(N_WORDS, generator=gen)[:length]`를
#   `torch.randint(N_WORDS, (length,), generator=gen)`으로 바꾸면 같은 한국어 단어가 한 문장에 두 번
#   나올 수 있습니다. 그런 문장에서 가중치 행은 어떻게 나뉘나요?

# %% [markdown] lang="en"
# In this task exactly one pair is right, so nearly all the weight goes to one place. Still, even
# the smallest weight is not zero: attention always blends a little of every state. And nobody set
# these weights either. The model learned from questions and answers only; nobody told it which
# pair to look at, just as the lesson's toy translator learned on its own to align "ate" with the
# Korean verb.
#
# ## Try it
#
# - In the GRU demo, change `changed[0, 0]` to `changed[0, -1]` so that the last word changes.
#   How far does the context vector move now, compared with changing the first word?
# - Set `HIDDEN` to 128 and the `steps` of `train` to 1500, and run everything again (training
#   takes several times longer). How much does the context-vector model improve? 128 numbers could
#   easily hold two pairs; if it still misses on short sentences, what is the hard part?
# - In `make_batch`, replace `torch.randperm(N_WORDS, generator=gen)[:length]` with
#   `torch.randint(N_WORDS, (length,), generator=gen)`, so that a Korean word can appear twice in
#   a sentence. How does a row of weights split in such a sentence?
