print("OfflineEngine sample")
