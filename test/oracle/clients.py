"""Client checks (stub for now)."""


class Clients:
    def __init__(self, args, seed, log):
        pass

    def check(self, members, stats, path_filter):
        pass

    def finish(self, stats):
        pass

    def repro(self, case, path):
        return None
