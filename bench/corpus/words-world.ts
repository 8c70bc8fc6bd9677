/**
 * Non-English vocabularies and character sets for the corpus. Each list is short and written for
 * this project; the generators recombine them, so the statistics (script, byte width, word
 * length) matter more than the meaning.
 */
const words = (text: string): string[] => text.split(/\s+/).filter((w) => w.length > 0);
const chars = (text: string): string[] => [...text.replace(/\s+/g, "")];

export const LATIN_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  german: words(`der die das und ist nicht ein eine mit für auf dem den von zu sich des auch als wird bei
    Verantwortung Geschwindigkeitsbegrenzung Straßenbahn Übersetzung Größe Schlüssel Bäume Mädchen Frühstück
    Zusammenfassung Entwicklung Umgebung Anforderung Schnittstelle Wahrscheinlichkeit Überprüfung Aufgabe
    müssen können würde hätte läuft schließen öffnen gegenüber während außerdem natürlich ungefähr`),
  french: words(`le la les et est un une des du de dans pour pas que qui sur avec ce cette sont être avoir
    été déjà très où là après même système problème général élève français réponse requête fenêtre tâche
    modèle évaluation résultat nécessaire première dernière façon hôpital château forêt garçon ça leçon`),
  spanish: words(`el la los las y es en un una de del que por con para como pero más está están también
    año niño señor mañana corazón canción información educación después todavía aquí allí rápido último
    pequeño búsqueda configuración evaluación tamaño ventana presupuesto solicitud respuesta`),
  portuguese: words(`o a os as e é em um uma de do da que para com não mais por como mas ao ele ela são
    coração ação informação também está você então já até avaliação orçamento janela tarefa resposta`),
  polish: words(`i w na z do nie się to że jest jak ale dla od po co tak już tylko przez może być są był
    źródło łóżko żółty gęś ćma śnieg książka pieniądze dziękuję przepraszam wiadomość zadanie okno`),
  vietnamese: words(`tôi bạn chúng ta là của và có không được người những một trong này đã với cho các
    để khi đến nhiều thời gian việc làm nói biết thấy muốn cần phải nước Việt Nam tiếng học sinh trường`),
  turkish: words(`ve bir bu da de için ile ne var çok daha gibi ama olarak sonra kadar şey göre değil
    ğ ış çalışma öğrenci güzel büyük küçük şehir ülke dünya zaman insan bütçe pencere görev yanıt`),
  indonesian: words(`yang dan di itu dengan untuk tidak ini dari dalam akan pada juga saya ke karena
    tersebut bisa ada mereka lebih kata tahun sudah atau saat oleh menjadi orang anggaran jendela tugas`),
  lorem: words(`lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut
    labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi aliquip
    ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur
    excepteur sint occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum`),
};

export const NON_LATIN_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  russian: words(`и в не на я быть он с что а по это она этот к но они мы как из у который то за свой
    весь год от так о для ты же все тот мочь вы человек такой его сказать только или ещё бы себя один
    бюджет окно задача ответ запрос модель оценка результат проверка контекст`),
  ukrainian: words(`і в не на що це як але з до від для він вона вони ми ви бути мати їхній ґанок
    бюджет вікно завдання відповідь запит модель оцінка результат перевірка`),
  greek: words(`και το η να του τα της με την που δεν ο είναι για από θα στο σε στην τον οι ένα
    προϋπολογισμός παράθυρο εργασία απάντηση αίτημα μοντέλο αξιολόγηση αποτέλεσμα`),
  arabic: words(`في من على إلى أن هذا التي الذي مع كان عن ما لا هذه بين كل قد ذلك بعد عند
    الميزانية النافذة المهمة الإجابة الطلب النموذج التقييم النتيجة`),
  hebrew: words(`של את על לא זה עם הוא היא כי גם אני מה יש אבל כל או אם תקציב חלון משימה תשובה בקשה`),
  hindi: words(`और का के की है में से को एक यह पर भी नहीं कि था हैं लिए वह कर जो
    बजट खिड़की कार्य उत्तर अनुरोध मॉडल मूल्यांकन परिणाम`),
  thai: words(`และ ของ ที่ ใน เป็น การ ได้ ให้ มี ไม่ จะ ว่า กับ นี้ แล้ว งบประมาณ หน้าต่าง งาน คำตอบ`),
};

/** Frequent Chinese characters (simplified), roughly in frequency order. */
export const HANZI = chars(`的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以
生会自着去之过家学对可里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见
经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名
定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代
军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感
金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南
度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留
红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收
脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟
谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官
示冷域预算窗口任务回答请求模型评估结果候选合并阶段路由容量`);

/** Less common characters: they cost more o200k tokens per character than the list above. */
export const HANZI_RARE = chars(`龘靐齉爩鱻麤龖龗饕餮魑魅魍魉耄耋饕鬻麸麹鼹鼯鼷鼩齁齉彧斌淼焱垚犇骉猋羴
赑贔嚞囍燚鑫磊晶鑫森淼焱垚壵奣歮菿蘁虋瓥讟钃靊鸙龤齾`);

export const HIRAGANA = chars(`あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ
らりるれろわをんがぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽゃゅょっ`);
export const KATAKANA_WORDS = words(`コンピュータ プログラム データ ファイル サーバー ネットワーク テスト
エラー メッセージ モデル トークン ウィンドウ タスク リクエスト レスポンス バジェット スクリプト`);
export const JAPANESE_PHRASES = words(`これは テスト です 予算 を 確認 して ください 今日 は 天気 が 良い
私 の 名前 は 日本語 を 勉強 しています ありがとう ございます 問題 が 発生 しました 結果 を 待って います`);

export const HANGUL_WORDS = words(`안녕하세요 감사합니다 예산 창 작업 응답 요청 모델 평가 결과 후보 병합
단계 경로 용량 사람 시간 문제 학교 나라 정부 회사 생각 이야기 오늘 내일 우리 그리고 하지만 때문에
있습니다 없습니다 합니다 했습니다 것입니다 확인해 주세요`);

export const EMOJI = chars(`😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘😋😛😜🤪😝🤑🤗🤭🤫🤔🤐🤨😐😑😶😏😒
🙄😬😌😔😪😴😷🤒🤕🤢🤮🤧🥵🥶🥴😵🤯🤠🥳😎🤓🧐😕😟🙁😮😯😲😳🥺😦😧😨😰😥😢😭😱😖😣😞😓😩😫🥱😤😡
👍👎👏🙌👋🤝🙏💪🔥✨⭐🌟💯✅❌⚠🚀🎉🎯📦📝📌🔒🔑🐛🧪🧰⏱📈📉💡🌍🌈🍕☕🐍🦀🐳`);
/** Multi-code-point emoji: ZWJ families, flags, skin tones, keycaps. */
export const EMOJI_SEQUENCES = [
  "👨‍👩‍👧‍👦", "👩‍💻", "🧑‍🔬", "🏳️‍🌈", "🏴‍☠️", "👍🏽", "👋🏿", "🇯🇵", "🇩🇪", "🇧🇷", "🇳🇿", "1️⃣", "#️⃣", "❤️‍🔥", "🧑🏾‍🚀", "🐕‍🦺",
];

/** Box drawing, arrows, maths and typographic symbols seen in terminal output and docs. */
export const SYMBOLS = chars(`─│┌┐└┘├┤┬┴┼═║╔╗╚╝╠╣╦╩╬▀▄█░▒▓■□▪▫▲△▶▷▼▽◀◁●○◆◇★☆←↑→↓↔↕⇒⇔
∀∂∃∅∇∈∉∋∏∑−∓∗√∝∞∠∧∨∩∪∫≈≠≡≤≥⊂⊃⊆⊇⊕⊗⊥⋅…‰′″‹›«»“”‘’—–•·©®™°±²³µ¶×÷€£¥¢§`);
