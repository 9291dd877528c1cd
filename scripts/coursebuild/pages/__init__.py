"""Pages: the marker grammar (:mod:`.markers`), its one table of kinds (:mod:`.kinds`), the
public results lookup (:mod:`.results`) and the handlers that read the build's data into a page
(code, widgets, teaching plans and reading times, navigation, how to get the code)."""
