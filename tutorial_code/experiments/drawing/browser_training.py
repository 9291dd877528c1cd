"""Lesson 8's trainer runs draw no figure of their own: the page shows them beside the reader's run,
in the widget (``widgets/train.js``), from the page data. What this module adds are the words the
page's note on the comparison says about the build's runs, chosen from the results:

* ``diverged_run``: where the run at the rate that diverges stopped, and what was no longer a
  finite number there (the loss or a gradient; with a gradient, the loss of that step, which was
  still finite);
* ``rounding``: the float64 runs (``Config.rounding``) against the float32 runs of the same
  settings: the first step at which their training losses differ by more than ``APART``, and
  where each run ended; then whether rounding alone moved where a run stopped by more than the
  widget's own margins (the page data's ``agree``), so the page never says "a little" where the
  runs part at step 2.
"""

from __future__ import annotations

from .norm_placement import power_of_ten

APART = 0.01  # two losses "differ" when they are more than 1 % apart (relative to the float64 one)

LABELS = {
    "ko": {
        "title": "브라우저 학습 설정별 PyTorch 실행",
        "what": {"loss": "손실이", "gradient": "기울기가"},
        "diverged": "최대 학습률이 {lr}일 때 PyTorch 실행은 {s}스텝에서 {what} 유한한 수가 아니게 되어 멈췄습니다.",
        "loss_finite": " 그 스텝의 손실({loss})은 아직 유한한 수였습니다.",
        "none_diverged": "PyTorch로 학습한 설정 가운데 유한하지 않은 수 때문에 멈춘 것은 없습니다.",
        "intro": "반올림만으로 무엇이 달라지는지 보려고, 그 설정 가운데 {count} 가지를 같은 시작 파라미터와 같은 배치로 "
                 "PyTorch의 64비트 계산에서 한 번 더 학습시켰습니다.",
        "count": {1: "한", 2: "두", 3: "세"},  # 두 가지
        "with_defaults": "기본 설정에서는",
        "at_lr": "최대 학습률이 {lr}일 때는",
        "apart_never": "32비트와 64비트 실행의 학습 손실이 함께 지난 {n}스텝 내내 서로 {pct} 안에 있었습니다.",
        "apart_at": "32비트와 64비트 실행의 학습 손실이 {k}스텝에서 처음으로 {pct} 넘게 벌어졌습니다.",
        "pct": "{p:g}퍼센트",
        "same_reached": "둘 다 {a}스텝에서 기준에 이르렀습니다",
        "both_reached": "기준에 이른 스텝은 32비트가 {a}스텝, 64비트가 {b}스텝이었습니다",
        "both_diverged": "32비트 실행은 {a}스텝에서, 64비트 실행은 {b}스텝에서 멈췄습니다",
        "both_short": "둘 다 기준에 이르지 못했습니다",
        "mixed": "32비트 실행은 {x}, 64비트 실행은 {y}",
        "end_first": {"reached": "{s}스텝에서 기준에 이르렀고", "diverged": "{s}스텝에서 멈췄고",
                      "short": "{s}스텝을 모두 학습하고도 기준에 이르지 못했고"},
        "end_last": {"reached": "{s}스텝에서 기준에 이르렀습니다", "diverged": "{s}스텝에서 멈췄습니다",
                     "short": "{s}스텝을 모두 학습하고도 기준에 이르지 못했습니다"},
        "moved": "그러니 반올림만으로도 실행이 멈추는 자리가 달라질 수 있습니다. 이런 설정에서는 두 계산이 모두 "
                 "맞더라도 여러분의 실행과 PyTorch 실행이 멀리 떨어져 끝날 수 있고, 그때 위젯은 다르다고 말합니다.",
        "not_moved": "이 실행들에서는 반올림만으로 실행이 멈추는 자리가 위젯의 허용 범위를 넘어 달라지지 않았습니다.",
        "no_rounding": "",
    },
    "en": {
        "title": "The PyTorch run of each in-browser training setting",
        "what": {"loss": "the loss", "gradient": "a gradient"},
        "diverged": "At a peak learning rate of {lr}, the PyTorch run stopped at step {s}, when {what} was no longer "
                    "a finite number.",
        "loss_finite": " That step's loss, {loss}, was still finite.",
        "none_diverged": "No setting trained in PyTorch stopped on a number that was not finite.",
        "intro": "To see what rounding alone changes, {count} of these settings were trained once more, in PyTorch's "
                 "64-bit arithmetic, from the same starting parameters on the same batches.",
        "count": {1: "one", 2: "two", 3: "three"},
        "with_defaults": "With the defaults,",
        "at_lr": "At a peak learning rate of {lr},",
        "apart_never": "the 32-bit and 64-bit training losses stayed within {pct} of each other at every one of "
                       "the {n} steps both ran.",
        "apart_at": "the 32-bit and 64-bit training losses first differed by more than {pct} at step {k}.",
        "pct": "{p:g}%",
        "same_reached": "both reached the threshold at step {a}",
        "both_reached": "the 32-bit run reached the threshold at step {a}, the 64-bit run at step {b}",
        "both_diverged": "the 32-bit run stopped at step {a}, the 64-bit run at step {b}",
        "both_short": "neither reached the threshold",
        "mixed": "the 32-bit run {x}, while the 64-bit run {y}",
        "end_first": {"reached": "reached the threshold at step {s}", "diverged": "stopped at step {s}",
                      "short": "ran all {s} steps without reaching the threshold"},
        "end_last": {"reached": "reached the threshold at step {s}", "diverged": "stopped at step {s}",
                     "short": "ran all {s} steps without reaching the threshold"},
        "moved": "So rounding alone can move where a run stops: in such a setting your run and the PyTorch run can end "
                 "far apart although both compute correctly, and the widget then says they differ.",
        "not_moved": "In these runs rounding alone did not move where a run stopped beyond the widget's margins.",
        "no_rounding": "",
    },
}


def figures(results, lang, outdir):
    return []


def ending(run: dict) -> tuple[str, int]:
    """How a run ended, as the widget says it: ("diverged", step), ("reached", step) or ("short", steps run)."""
    if run["diverged_step"]:
        return "diverged", run["diverged_step"]
    if run["reached_step"]:
        return "reached", run["reached_step"]
    return "short", run["steps_run"]


def first_apart(a: list[float], b: list[float], within: float = APART) -> int | None:
    """The first step (counted from 1) at which losses ``a`` and ``b`` differ by more than ``within``
    relative to ``b``, or None when they never do over the steps both ran."""
    for step, (x, y) in enumerate(zip(a, b), start=1):
        if abs(x - y) > within * abs(y):
            return step
    return None


def moved(e32: tuple[str, int], e64: tuple[str, int], agree: dict, eval_every: int) -> bool:
    """Whether two endings differ by the widget's rule (train.js, verdict): another kind of ending,
    or the same kind further apart than the page data's margins."""
    if e32[0] != e64[0]:
        return True
    if e32[0] == "diverged":
        return abs(e32[1] - e64[1]) > agree["diverged_steps_within"]
    if e32[0] == "reached":
        return abs(e32[1] - e64[1]) > agree["evals_within"] * eval_every
    return False  # neither reached nor diverged: the widget compares exact matches, not steps


def _lr(setting: dict) -> str:
    return f"{float(setting['lr']):g}"  # 10000, 0.005


def _where(name: str, setting: dict, default: dict, t: dict) -> str:
    changed = [k for k in setting if setting[k] != default[k]]
    if name == "default" or not changed:
        return t["with_defaults"]
    if changed == ["lr"]:
        return t["at_lr"].format(lr=_lr(setting))
    raise ValueError(f"the rounding runs are the default and one-rate changes; {name!r} changes {changed}")


def _end_words(e32, e64, t) -> str:
    (k32, s32), (k64, s64) = e32, e64
    if k32 != k64:
        return t["mixed"].format(x=t["end_first"][k32].format(s=s32), y=t["end_last"][k64].format(s=s64))
    if k32 == "reached":
        return t["same_reached"].format(a=s32) if s32 == s64 else t["both_reached"].format(a=s32, b=s64)
    if k32 == "diverged":
        return t["both_diverged"].format(a=s32, b=s64)
    return t["both_short"]


def diverged_run(results: dict) -> dict:
    """The first run that changes only the rate and stopped on a number that was not finite."""
    runs = results["runs"]
    default = runs["default"]["setting"] if "default" in runs else None
    for r in runs.values():
        changed = [k for k in r["setting"] if default and r["setting"][k] != default[k]]
        if r["diverged_step"] and changed == ["lr"]:
            return r
    return {}


def words(results: dict) -> dict:
    """The note's two sentences about the build's runs (see the module docstring)."""
    out = {}
    run = diverged_run(results)
    diverged = {}
    for lang, t in LABELS.items():
        if not run:
            diverged[lang] = t["none_diverged"]
            continue
        text = t["diverged"].format(lr=_lr(run["setting"]), s=run["diverged_step"], what=t["what"][run["nonfinite"]])
        if run["nonfinite"] == "gradient" and run.get("diverged_loss") is not None:
            text += t["loss_finite"].format(loss=power_of_ten(run["diverged_loss"]))
        diverged[lang] = text
    out["diverged_run"] = diverged

    runs, float64 = results["runs"], results.get("float64", {})
    train = results["widgets"]["train"]
    agree, eval_every = train["agree"], train["base"]["eval_every"]
    default = runs["default"]["setting"] if "default" in runs else {}
    rounding = {}
    for lang, t in LABELS.items():
        if not float64:
            rounding[lang] = t["no_rounding"]
            continue
        parts, any_moved = [t["intro"].format(count=t["count"].get(len(float64), str(len(float64))))], False
        pct = t["pct"].format(p=100 * APART)
        for name, r64 in float64.items():
            r32 = runs[name]
            k = first_apart(r32["losses"], r64["losses"])
            n = min(len(r32["losses"]), len(r64["losses"]))
            apart = t["apart_never"].format(n=n, pct=pct) if k is None else t["apart_at"].format(k=k, pct=pct)
            e32, e64 = ending(r32), ending(r64)
            any_moved |= moved(e32, e64, agree, eval_every)
            end = _end_words(e32, e64, t)
            parts += [f"{_where(name, r32['setting'], default or r32['setting'], t)} {apart}", end[0].upper() + end[1:] + "."]
        parts.append(t["moved"] if any_moved else t["not_moved"])
        rounding[lang] = " ".join(parts)
    out["rounding"] = rounding
    return out
