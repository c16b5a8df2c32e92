print("store crash helper")
